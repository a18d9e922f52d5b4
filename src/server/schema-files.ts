/**
 * The editor schemas of the loaded bundles as the server answers them (routes/schemas.ts): text and
 * ETag, made on first request. Its own module, as the server's state holds one per registry and
 * the route reads that state.
 */
import type { Bundle } from '../bundle/bundle.js';
import { editorSchemaMakers, schemaText } from '../editor-schemas/editor-schemas.js';
import type { Schema } from '../kubernetes/kind-schema.js';
import { sha256Digest } from '../util/digest.js';

export interface SchemaFile {
  text: string;
  etag: string;
}

/** The editor schemas of some bundles: every path known at once, each file made on its first request and kept. */
export class SchemaFiles {
  private readonly makers: ReadonlyMap<string, () => Schema>;
  private readonly made = new Map<string, SchemaFile>();

  constructor(bundles: readonly Bundle[]) {
    this.makers = editorSchemaMakers(bundles);
  }

  paths(): IterableIterator<string> {
    return this.makers.keys();
  }

  get(path: string): SchemaFile | undefined {
    let file = this.made.get(path);
    const make = this.makers.get(path);
    if (file === undefined && make !== undefined) {
      const text = schemaText(make());
      this.made.set(path, (file = { text, etag: `"${sha256Digest(text).slice('sha256:'.length, 'sha256:'.length + 32)}"` }));
    }
    return file;
  }
}
