/**
 * Following a registry (BUNDLES_FROM): every poll interval, and on SIGHUP, list the releases each
 * followed repository holds, pull those the bundles folder lacks, check their digests and (with
 * TRUST_KEY_FILE) their signatures, add them to the folder (bundle/add-release.ts) and reload it as
 * SIGHUP does. A registry that is down or answers garbage changes nothing served: it is logged once
 * per outage, and shows in /readyz and the metrics (registry-status.ts).
 */
import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import { addRelease } from '../bundle/add-release.js';
import { releasesInDist } from '../bundle/dist-layout.js';
import { type Credentials, isOutage, RegistryClient } from '../oci/distribution.js';
import { ociRepository, placeText, repositoryOf } from '../oci/reference.js';
import { pullRelease, RefusedReleaseError } from '../oci/release-pull.js';
import { readTrustedKeys } from '../oci/signature.js';
import { isRelease } from '../release/release.js';
import { backOff } from './back-off.js';
import type { BundlesFrom } from './config.js';
import { newRegistryStatus, type RegistryStatus } from './registry-status.js';

/** The longest a failing registry waits between polls, unless BUNDLES_POLL_SECONDS is longer: the kubelet's crash back-off. */
const MAX_RETRY_MS = 5 * 60_000;

export interface FollowerOptions {
  from: BundlesFrom;
  credentials: Credentials | undefined;
  distDir: string;
  logger: Logger;
  /** Called after a poll that added releases to the folder: reload it. */
  onAdded: () => void;
  /** Called after every poll, with the status it left. */
  onPolled?: (status: RegistryStatus) => void;
}

export class RegistryFollower {
  readonly status: RegistryStatus;
  private readonly client: RegistryClient;
  private trusted: KeyObject[] | undefined;
  private running: Promise<void> | undefined;
  private pollAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The wait before the next poll while polls fail (0 when the last succeeded): a registry in trouble is asked ever less often. */
  private retryMs = 0;

  constructor(private readonly options: FollowerOptions) {
    const { from } = options;
    this.status = newRegistryStatus(placeText(from.place), from.trustKeyFile !== undefined);
    // A poll must not outlast its interval by much; the registry is on the network, not the hot path.
    this.client = new RegistryClient(from.place.registry, {
      insecure: from.insecure,
      credentials: options.credentials,
      timeoutMs: Math.min(30_000, Math.max(2_000, from.pollMs)),
    });
    this.trusted = from.trustKeyFile === undefined ? undefined : readTrustedKeys(from.trustKeyFile);
  }

  /** Reads TRUST_KEY_FILE again (SIGHUP): a rotated key applies from the next poll; a file that fails keeps the old keys. */
  reloadTrust(): void {
    if (this.options.from.trustKeyFile === undefined) return;
    try {
      this.trusted = readTrustedKeys(this.options.from.trustKeyFile);
    } catch (error) {
      this.options.logger.error(
        { reason: (error as Error).message },
        'reload: TRUST_KEY_FILE could not be read; the previous trust keys stay',
      );
    }
  }

  /** Polls now, then every interval until stop(). */
  start(): Promise<void> {
    const first = this.poll();
    const next = () => {
      if (this.stopped) return; // a poll that ends after stop() schedules none
      this.timer = setTimeout(() => void this.poll().finally(next), this.retryMs || this.options.from.pollMs);
      this.timer.unref();
    };
    void first.finally(next);
    return first;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** One poll; one asked for while another runs is made once that ends (SIGHUP during a poll is not lost). */
  poll(): Promise<void> {
    if (this.running !== undefined) {
      this.pollAgain = true;
      return this.running;
    }
    this.running = this.pollOnce().finally(() => {
      this.running = undefined;
      if (this.pollAgain) {
        this.pollAgain = false;
        void this.poll();
      }
    });
    return this.running;
  }

  private async pollOnce(): Promise<void> {
    const { status } = this;
    const { logger } = this.options;
    const started = performance.now();
    let added = 0;
    const refusedNow = new Set<string>();
    try {
      for (const name of await this.followed()) added += await this.pullMissing(name, refusedNow);
      // A refused release that is gone from the registry is no longer worth a word.
      for (const reference of Object.keys(status.refused)) if (!refusedNow.has(reference)) delete status.refused[reference];
      if (status.reachable === false) logger.info({ registry: status.source }, 'registry: reachable again');
      status.reachable = true;
      status.lastSuccess = new Date().toISOString();
      status.error = undefined;
      status.polls.ok++;
      this.retryMs = 0;
    } catch (error) {
      status.polls.failed++;
      const { pollMs } = this.options.from;
      this.retryMs = backOff(this.retryMs, pollMs, Math.max(pollMs, MAX_RETRY_MS));
      // Once per outage: a registry down for a day must not fill the log with one line per poll.
      if (status.reachable !== false)
        logger.error(
          { registry: status.source, reason: (error as Error).message },
          'registry: poll failed; the releases served stay as they are',
        );
      status.reachable = false;
      status.error = (error as Error).message;
    } finally {
      status.lastPoll = new Date().toISOString();
      status.lastPollSeconds = (performance.now() - started) / 1000;
      if (added > 0) this.options.onAdded();
      this.options.onPolled?.(status);
    }
  }

  /** The OCI repositories followed: those BUNDLES_FROM_REPOSITORIES names, or the catalog's under the path. */
  private async followed(): Promise<string[]> {
    const { place, repositories } = this.options.from;
    if (repositories !== undefined) return repositories.map((entry) => ociRepository(place, ...(entry.split('/') as [string, string])));
    return (await this.client.catalog()).filter((name) => repositoryOf(place, name) !== undefined).sort();
  }

  /** Pulls the releases of `name` the folder lacks; returns how many it added. Only an outage stops the poll. */
  private async pullMissing(name: string, refusedNow: Set<string>): Promise<number> {
    const { distDir, logger } = this.options;
    const { repository, apiVersion } = repositoryOf(this.options.from.place, name)!;
    // One bad repository or release must not keep the others from being served: it is refused, alone.
    const refuse = (reference: string, error: unknown): void => {
      if (isOutage(error)) throw error;
      const why = error instanceof RefusedReleaseError ? error.why : (error as Error).message;
      if (this.status.refused[reference] !== why) logger.warn({ release: reference, reason: why }, 'registry: release refused');
      this.status.refused[reference] = why;
      refusedNow.add(reference);
    };
    let tags: string[];
    try {
      tags = await this.client.tags(name);
    } catch (error) {
      refuse(`${this.client.registry}/${name}`, error);
      return 0;
    }
    const held = new Set(releasesInDist(distDir, repository, apiVersion));
    let added = 0;
    for (const tag of tags.filter(isRelease)) {
      if (held.has(tag)) continue;
      const reference = `${this.client.registry}/${name}:${tag}`;
      try {
        const pulled = await pullRelease(this.client, name, tag, this.trusted);
        if (pulled === undefined) continue; // untagged between listing and pulling
        addRelease(distDir, pulled.bundle, pulled.files, pulled.date);
        added++;
        this.status.pulled++;
        logger.info({ release: reference, digest: pulled.digest, signedBy: pulled.signedBy }, 'registry: release pulled');
      } catch (error) {
        refuse(reference, error); // looked at again each poll: it may be signed, or mended, later
      }
    }
    return added;
  }
}
