/**
 * Releases through a registry (issue 21): push and pull of every release in dist/ against Debian's
 * docker-registry on loopback, and what one poll of a server following it costs when nothing is new.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { addRelease } from '../../src/bundle/add-release.js';
import { readBundleFile } from '../../src/bundle/bundle-file.js';
import { readIndexFile } from '../../src/bundle/dist-layout.js';
import { RegistryClient } from '../../src/oci/distribution.js';
import { ociRepository, parsePlace } from '../../src/oci/reference.js';
import { releaseFiles } from '../../src/oci/release-artifact.js';
import { pullRelease } from '../../src/oci/release-pull.js';
import { pushRelease } from '../../src/oci/release-push.js';
import { RegistryFollower } from '../../src/server/registry-follower.js';
import { startDockerRegistry } from '../../test/helpers/docker-registry.js';

export interface RegistryFigures {
  releases: number;
  files: number;
  bytes: number;
  /** Every release pushed (and signed) into an empty registry, one after another. */
  pushMs: number;
  /** Every release pulled, signatures checked, into an empty folder. */
  pullMs: number;
  /** One poll of a follower that has every release: median wall time, requests and CPU. */
  pollMs: number;
  pollRequests: number;
  pollCpuUs: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function registryBench(dist: string, polls: number): Promise<RegistryFigures> {
  const registry = await startDockerRegistry();
  const work = mkdtempSync(path.join(tmpdir(), 'facetform-registry-bench-'));
  try {
    const place = parsePlace(registry.place);
    const client = new RegistryClient(place.registry, { insecure: true });
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const trusted: KeyObject[] = [publicKey];
    const entries = readIndexFile(dist).bundles;
    let files = 0;
    let bytes = 0;
    let started = performance.now();
    for (const entry of entries) {
      const file = path.join(dist, entry.path);
      const release = releaseFiles(path.dirname(file));
      files += release.size;
      for (const content of release.values()) bytes += content.length;
      await pushRelease(
        client,
        ociRepository(place, entry.repository, entry.apiVersion),
        readBundleFile(file),
        release,
        entry.date,
        privateKey,
      );
    }
    const pushMs = performance.now() - started;
    const folder = path.join(work, 'pulled');
    started = performance.now();
    for (const entry of entries) {
      const pulled = (await pullRelease(client, ociRepository(place, entry.repository, entry.apiVersion), entry.release, trusted))!;
      addRelease(folder, pulled.bundle, pulled.files, pulled.date);
    }
    const pullMs = performance.now() - started;
    // A follower holding every release: what each poll costs a server when nothing is new.
    const trustKeyFile = path.join(work, 'trusted.pub');
    writeFileSync(trustKeyFile, publicKey.export({ type: 'spki', format: 'pem' }));
    const follower = new RegistryFollower({
      from: { place, insecure: true, pollMs: 60_000, trustKeyFile, repositories: undefined },
      credentials: undefined,
      distDir: folder,
      logger: pino({ level: 'silent' }),
      onAdded: () => undefined,
    });
    const realFetch = globalThis.fetch;
    let requests = 0;
    globalThis.fetch = (...args) => {
      requests++;
      return realFetch(...args);
    };
    const walls: number[] = [];
    const cpus: number[] = [];
    try {
      for (let round = 0; round < polls; round++) {
        const cpu = process.cpuUsage();
        const wall = performance.now();
        await follower.poll();
        walls.push(performance.now() - wall);
        const used = process.cpuUsage(cpu);
        cpus.push(used.user + used.system);
      }
    } finally {
      globalThis.fetch = realFetch;
    }
    if (follower.status.pulled !== 0 || follower.status.polls.failed !== 0)
      throw new Error(`the polls were not idle: ${JSON.stringify(follower.status)}`);
    return {
      releases: entries.length,
      files,
      bytes,
      pushMs,
      pullMs,
      pollMs: median(walls),
      pollRequests: requests / polls,
      pollCpuUs: median(cpus),
    };
  } finally {
    await registry.stop();
    rmSync(work, { recursive: true, force: true });
  }
}
