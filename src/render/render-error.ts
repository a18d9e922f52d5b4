/**
 * The one error a render may throw: every problem of a request, each with a JSON Pointer into the
 * request body, so a caller can fix them all at once (CONTRACT §4, §5).
 */
export interface Problem {
  pointer: string;
  detail: string;
}

export class RenderError extends Error {
  constructor(
    readonly title: string,
    readonly problems: Problem[],
    /** HTTP status the server answers with. */
    readonly status = 422,
  ) {
    super(problems.length === 1 ? `${title}: ${problems[0]!.pointer || '/'} ${problems[0]!.detail}` : `${title} (${problems.length} problems)`);
    this.name = 'RenderError';
  }
}
