/**
 * What `facetform dev` tells a console about its preview: the header that marks every answer, and
 * the status its event stream sends after every rebuild. Pure, so the console shares it
 * (src/console/dev-reload.ts).
 */
export const PREVIEW_HEADER = 'X-Facetform-Preview';
export const EVENTS_PATH = '/dev/events';

/** What the console is told after every rebuild; nothing in it needs the key. */
export interface PreviewStatus {
  /** Changes when this process starts, so that a console sees a restarted `facetform dev` as a rebuild. */
  session: string;
  /** Counts the rebuilds that changed what is served. */
  generation: number;
  keyless: boolean;
  repositories: Array<{
    name: string;
    /** The declared release with +dev, of what is served; absent while nothing of it compiles. */
    release?: string;
    errors: number;
    warnings: number;
    /** True when lint errors keep the last good preview of it serving (or none, when it never compiled). */
    stale: boolean;
    /** Per collection served, a digest of what discovery says of it (facets, sections, schema, examples), not of what it renders. */
    collections: Record<string, string>;
  }>;
}
