/**
 * What the server knows of the registry it follows (BUNDLES_FROM): shown in /readyz details and as
 * metrics. Kept by the follower (registry-follower.ts); with WORKERS, by the primary, which sends it
 * to the workers after every poll.
 */
export interface RegistryStatus {
  /** oci://HOST/PATH */
  source: string;
  /** Whether signatures are checked (TRUST_KEY_FILE). */
  verified: boolean;
  /** Whether the last poll succeeded; undefined before the first ends. */
  reachable: boolean | undefined;
  lastPoll?: string | undefined;
  lastSuccess?: string | undefined;
  lastPollSeconds?: number | undefined;
  /** Why the last poll failed, while it does. */
  error?: string | undefined;
  polls: { ok: number; failed: number };
  /** Releases pulled since start. */
  pulled: number;
  /** Releases the registry holds that are not served, by reference, and why. */
  refused: Record<string, string>;
}

export const newRegistryStatus = (source: string, verified: boolean): RegistryStatus => ({
  source,
  verified,
  reachable: undefined,
  polls: { ok: 0, failed: 0 },
  pulled: 0,
  refused: {},
});
