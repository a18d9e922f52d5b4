/**
 * `facetform dev` serves the working tree of repos/ as an unreleased preview, through the same app
 * as `serve`. What only the preview adds lives here: the marking of every answer
 * (`X-Facetform-Preview`, the release as `<declared>+dev`, a `preview` member in discovery answers),
 * the events the console listens to (`GET /dev/events`, Server-Sent Events), and TypeScript
 * declarations made in memory, since a preview writes no files. Its routes are routes/preview.ts.
 */
import type { PassThrough } from 'node:stream';
import type { Middleware } from 'koa';
import type { LoadedCollection } from '../bundle/load.js';
import { PREVIEW_HEADER, type PreviewStatus } from './preview-status.js';

export { EVENTS_PATH, PREVIEW_HEADER, type PreviewStatus } from './preview-status.js';
/** Appended to the declared release in X-Facetform-Release: semver build metadata, so the release it will become stays readable. */
export const PREVIEW_RELEASE_SUFFIX = '+dev';

type Listener = (status: PreviewStatus) => void;

export class Preview {
  private readonly listeners = new Set<Listener>();
  private readonly streams = new Set<PassThrough>();
  private readonly declarations = new Map<string, Promise<string>>();
  private current: PreviewStatus;

  /**
   * `note`: the value of X-Facetform-Preview, e.g. "unreleased working tree of repos/".
   * `keyless`: every route answers without X-APIKEY (dev on a loopback address with no key configured).
   */
  constructor(
    readonly note: string,
    readonly keyless: boolean,
  ) {
    this.current = { session: `${process.pid}-${Date.now()}`, generation: 0, keyless, repositories: [] };
  }

  get status(): PreviewStatus {
    return this.current;
  }

  /** Tells every listening console; declarations of bundles no longer served are dropped. */
  publish(status: Omit<PreviewStatus, 'session' | 'keyless'>, servedDigests: ReadonlySet<string>): void {
    this.current = { ...status, session: this.current.session, keyless: this.keyless };
    for (const key of this.declarations.keys()) if (!servedDigests.has(key.split(' ')[0]!)) this.declarations.delete(key);
    for (const listener of this.listeners) listener(this.current);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The collection's TypeScript declaration, made once per bundle (json-schema-to-typescript, loaded only when asked). */
  typeDeclarations(found: LoadedCollection): Promise<string> {
    const key = `${found.bundle.digest} ${found.collection.name}`;
    let made = this.declarations.get(key);
    if (made === undefined) {
      const repository = { ...found.bundle.repository, release: found.bundle.repository.release + PREVIEW_RELEASE_SUFFIX };
      made = import('../compiler/declarations.js').then(({ typeDeclarations }) => typeDeclarations(repository, found.collection));
      made.catch(() => this.declarations.delete(key));
      this.declarations.set(key, made);
    }
    return made;
  }

  /** Ends every event stream, so that a shutdown need not wait for the consoles. */
  close(): void {
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    this.listeners.clear();
  }

  /** @internal the event stream of one console */
  open(stream: PassThrough): void {
    this.streams.add(stream);
    stream.once('close', () => this.streams.delete(stream));
  }
}

/** Header values are printable ASCII: a folder name may not be. */
export function headerText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}

/**
 * Marks every answer as the preview: X-Facetform-Preview, and the release in X-Facetform-Release
 * as `<declared>+dev` (each one of a batch). GET discovery answers (`/apis/repos…`) say `preview`
 * in their body too. Outside the request pipeline, so that error answers and the ones it replaces are
 * marked as well.
 */
export function previewMarking(preview: Preview): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      ctx.set(PREVIEW_HEADER, preview.note);
      // Koa answers undefined for a header that is not set, whatever its types say.
      const release = ctx.response.get('X-Facetform-Release') as string | undefined;
      if (typeof release === 'string' && release !== '') {
        ctx.set(
          'X-Facetform-Release',
          release
            .split(', ')
            .map((named) => named + PREVIEW_RELEASE_SUFFIX)
            .join(', '),
        );
      }
      const body: unknown = ctx.body;
      if (
        ctx.method === 'GET' &&
        ctx.status === 200 &&
        (ctx.path === '/apis/repos' || ctx.path.startsWith('/apis/repos/')) &&
        isPlainObject(body)
      ) {
        ctx.body = {
          ...body,
          preview: `${preview.note}: served by facetform dev from the files as they are now, not a release; releases are made by facetform build`,
        };
      }
    }
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
