/** What stops a gitops command before any request renders: a bad generator config, bundles that do not load, a server that refuses the key. */
export class GitopsError extends Error {
  constructor(
    message: string,
    /** The file at fault, when one is. */
    readonly file?: string,
    /** JSON Pointer into that file. */
    readonly pointer?: string,
  ) {
    super(message);
    this.name = 'GitopsError';
  }
}
