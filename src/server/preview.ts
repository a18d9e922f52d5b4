/**
 * `facetform dev` serves the working tree of repos/ as an unreleased preview, through the same app
 * as `serve`. What only the preview holds lives here: its state, the events the console listens to
 * (`GET /dev/events`, Server-Sent Events), and TypeScript declarations made in memory, since a
 * preview writes no files. Its routes are routes/preview.ts, the marking of its answers
 * preview-marking.ts.
 */
import type { PassThrough } from 'node:stream';
import type { LoadedCollection } from '../bundle/load.js';
import type { PreviewStatus } from './preview-status.js';

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
