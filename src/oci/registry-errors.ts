/** What can go wrong with a registry, and which of it is an outage (the follower and `pull` decide by it). */

/** A registry that answered, but not as asked: what was asked, the status, and the registry's own words. */
export class RegistryError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** The registry could not be reached at all (refused, timed out, TLS failed). */
export class RegistryUnreachableError extends RegistryError {}

/** A listing that does not end (its pages loop, or run past their bounds): no registry does this, so it is one not to read from now. */
export class RegistryOverrunError extends RegistryError {}

/**
 * Whether an error says the registry as a whole cannot be used now (unreachable, refusing us, failing
 * itself, or listing without end), rather than that one thing it holds is bad: the first is an outage,
 * the second a refused release.
 */
export const isOutage = (error: unknown): boolean =>
  error instanceof RegistryUnreachableError ||
  error instanceof RegistryOverrunError ||
  (error instanceof RegistryError &&
    error.status !== undefined &&
    (error.status === 401 || error.status === 403 || error.status === 429 || error.status >= 500));
