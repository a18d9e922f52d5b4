/**
 * A server following a registry that lies (issue 32), end to end: the real server process follows the
 * hostile registry (a proxy of the tests' own, on loopback) in front of Debian's docker-registry, which
 * holds releases pushed by the real CLI. Each lie (lists whose pages link to themselves or never end,
 * an error whose body never ends, a release whose files cannot be written) must leave the server
 * serving, within its Deployment's memory, saying so once in the log and in /readyz, and taking a good
 * release once the registry tells the truth again. Bounds are counts (requests the registry got), not times.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, MAX_LISTING_BYTES, MAX_LISTING_PAGES } from '../../src/oci/bounded-read.js';
import { hasDockerRegistry, startDockerRegistry, type DockerRegistry } from '../helpers/docker-registry.js';
import { startHostileRegistry, type HostileRegistry, type LyingHandler } from '../helpers/hostile-registry.js';
import { endlessError, linkedPages } from '../helpers/lying-answers.js';
import { killServers, spawnServer, type ServerProcess } from '../helpers/process.js';
import {
  BEFORE_LATEST,
  exampleBody,
  exec,
  failedPolls,
  get,
  LATEST,
  logLines,
  POLL_SECONDS,
  push,
  readyz,
  REPOSITORY,
  sleep,
  waitFor,
} from '../helpers/registry-following.js';
import { ROOT, tempDir } from '../helpers/repos.js';
import { KEY } from '../helpers/server.js';

/** The memory limit of the server's container in deploy/, in bytes: RSS must stay well under it. */
const MEMORY_LIMIT =
  Number(/limits:\s*\n\s*memory:\s*(\d+)Mi/.exec(readFileSync(path.join(ROOT, 'deploy/deployment.yaml'), 'utf8'))![1]) * 2 ** 20;
/** Long enough for any number of failed polls retried ever more slowly in one test; only a poll that never comes misses it. */
const RETRIED_WITHIN = 60;

/** The server's resident memory, in bytes, from /proc. */
const rssOf = (server: ServerProcess) =>
  Number(/^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) * 1024;

/** Renders the example over and over until stopped: the status of every answer, to show the server kept serving. */
function renderAll(server: ServerProcess, body: string) {
  const statuses: Record<number, number> = {};
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const { status } = await exec(server, body);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await done;
      return statuses;
    },
  };
}

describe.skipIf(!hasDockerRegistry)('a server following a registry that lies', () => {
  let registry: DockerRegistry;
  let hostile: HostileRegistry;
  beforeAll(async () => {
    registry = await startDockerRegistry();
    hostile = await startHostileRegistry(registry.host);
  });
  afterEach(async () => {
    await killServers();
    hostile.honest();
  });
  afterAll(async () => {
    await hostile?.close();
    await registry?.stop();
  });

  /** A server on an empty bundles folder following `path` through the hostile registry, every second. */
  const follow = (place: string) =>
    spawnServer({
      BUNDLES_DIR: tempDir('facetform-followed-'),
      BUNDLES_FROM: `oci://${hostile.host}/${place}`,
      BUNDLES_FROM_INSECURE: 'true',
      BUNDLES_POLL_SECONDS: String(POLL_SECONDS),
      API_KEYS: KEY,
      RATE_LIMIT: '100000/s',
    });
  const tagsPath = (place: string) => `/v2/${place}/${REPOSITORY}/v1/tags/list`;

  const cases: Array<{ lie: string; path: (place: string) => string; handler: () => LyingHandler; said: string; perPoll: number }> = [
    {
      lie: 'catalog pages of 0.8 MB that link to themselves',
      path: () => '/v2/_catalog',
      handler: () => linkedPages('repositories', 800_000, 'itself'),
      said: 'page 1 of the list of its repositories (/v2/_catalog) links back to page 1 (/v2/_catalog)',
      perPoll: 1,
    },
    {
      lie: 'empty catalog pages that link to themselves',
      path: () => '/v2/_catalog',
      handler: () => linkedPages('repositories', 0, 'itself'),
      said: 'links back to page 1 (/v2/_catalog)',
      perPoll: 1,
    },
    {
      lie: 'tag pages of 2.2 MB without end',
      path: tagsPath,
      handler: () => linkedPages('tags', 2_200_000, 'endless'),
      said: `runs past ${MAX_LISTING_BYTES} bytes`,
      perPoll: Math.ceil(MAX_LISTING_BYTES / 2_200_000),
    },
    {
      lie: 'catalog pages of one name without end',
      path: () => '/v2/_catalog',
      handler: () => linkedPages('repositories', 1, 'endless'),
      said: `runs past ${MAX_LISTING_PAGES} pages`,
      perPoll: MAX_LISTING_PAGES,
    },
    {
      // Each page is new, so only its emptiness tells the lie: it used to cost MAX_LISTING_PAGES requests a poll.
      lie: 'empty catalog pages without end',
      path: () => '/v2/_catalog',
      handler: () => linkedPages('repositories', 0, 'endless'),
      said: 'page 1 of the list of its repositories (/v2/_catalog) is empty but links to a next page (/v2/_catalog?page=1)',
      perPoll: 1,
    },
    {
      lie: 'a catalog answering 500 with a body that never ends',
      path: () => '/v2/_catalog',
      handler: () => endlessError({ bytes: 0 }),
      said: 'listing its repositories (/v2/_catalog) failed (500: an error of more than 65536 bytes, not read)',
      perPoll: 1,
    },
  ];

  it.each(cases.map((entry, number) => ({ ...entry, number })))(
    'against $lie: keeps serving within its memory, logs the outage once, shows it in /readyz, and takes a good release once the registry behaves',
    async ({ lie, path: lyingPath, handler, said, perPoll, number }) => {
      expect(MAX_ANSWER_BYTES).toBeGreaterThan(2_200_000); // the tag pages above are refused for their sum, not each
      const place = `lies-${number}`;
      for (const release of BEFORE_LATEST) await push(`oci://${registry.host}/${place}`, release);
      const server = await follow(place);
      const body = await exampleBody(server);
      expect(await exec(server, body)).toEqual({ status: 200, release: BEFORE_LATEST.at(-1) });
      const rssBefore = rssOf(server);

      const asked = lyingPath(place);
      const askedBefore = hostile.requests(asked);
      hostile.answer(asked, handler());
      const renders = renderAll(server, body);
      let rssMax = rssBefore;
      const { value: failed } = await waitFor(
        async () => {
          rssMax = Math.max(rssMax, rssOf(server));
          const { failed } = await failedPolls(server);
          return failed >= 3 ? failed : undefined;
        },
        RETRIED_WITHIN,
        'three failed polls',
      );
      const requests = hostile.requests(asked) - askedBefore;
      // Each poll asks at most `perPoll` times before it gives up; one more poll may be under way.
      expect(requests).toBeLessThanOrEqual((failed + 1) * perPoll);
      expect(rssMax).toBeLessThan((MEMORY_LIMIT * 2) / 3); // a third left for requests
      const down = await readyz(server);
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({ status: 'degraded', registry: { reachable: false } });
      expect(down.body.registry.error).toContain(said);
      expect(down.body.detail).toContain(`oci://${hostile.host}/${place} cannot be read`);
      expect((await failedPolls(server)).text).toMatch(/^facetform_registry_up 0$/m);
      await sleep(500); // the log is written in batches every 250 ms
      const logged = logLines(server, 'registry: poll failed');
      expect(logged).toHaveLength(1);
      expect(logged[0]!.reason).toContain(said);

      await push(`oci://${registry.host}/${place}`, LATEST);
      hostile.honest();
      await waitFor(async () => ((await exec(server, body)).release === LATEST ? true : undefined), RETRIED_WITHIN, `${LATEST} served`);
      const statuses = await renders.stop();
      expect(Object.keys(statuses)).toEqual(['200']);
      const up = await readyz(server);
      expect(up.body).toMatchObject({ status: 'ready', registry: { reachable: true } });
      await sleep(500);
      expect(logLines(server, 'registry: poll failed')).toHaveLength(1);
      expect(logLines(server, 'registry: reachable again')).toHaveLength(1);
      expect(server.child.exitCode).toBeNull();
      const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
      console.info(
        `registry-lies: ${lie}: ${requests} requests in ${failed} failed polls, RSS ${mb(rssBefore)} → at most ${mb(rssMax)} ` +
          `(limit ${mb(MEMORY_LIMIT)}), ${statuses[200]} renders answered 200 meanwhile; said: ${down.body.registry.error}`,
      );
    },
    120_000,
  );

  it('refuses a release whose layer titles collide (zz and zz/inner), saying which, logged once, and takes the release once it is mended', async () => {
    const place = 'lies-zz';
    for (const release of [...BEFORE_LATEST, LATEST]) await push(`oci://${registry.host}/${place}`, release);
    // The release as pushed, with two more layers: a file zz, and a file inside a folder zz.
    const manifestPath = `/v2/${place}/${REPOSITORY}/v1/manifests/${LATEST}`;
    const manifest = (await (
      await fetch(`http://${registry.host}${manifestPath}`, { headers: { accept: 'application/vnd.oci.image.manifest.v1+json' } })
    ).json()) as { layers: Array<{ annotations: Record<string, string> }> };
    const layer = manifest.layers[0]!;
    const titled = (title: string) => ({ ...layer, annotations: { ...layer.annotations, 'org.opencontainers.image.title': title } });
    hostile.lie(manifestPath, JSON.stringify({ ...manifest, layers: [...manifest.layers, titled('zz'), titled('zz/inner')] }));

    const server = await follow(place);
    const body = await exampleBody(server);
    const ok = async () =>
      Number(/^facetform_registry_polls_total\{outcome="ok"\} (\d+)$/m.exec(await (await get(server, '/metrics')).text())?.[1]);
    await waitFor(async () => ((await ok()) >= 3 ? true : undefined), RETRIED_WITHIN, 'three polls');
    const reference = `${hostile.host}/${place}/${REPOSITORY}/v1:${LATEST}`;
    const ready = await readyz(server);
    expect(ready.body.status).toBe('ready'); // one refused release is not an outage
    expect(ready.body.registry.refused).toEqual({
      [reference]:
        'its layer titles are not the files of a release folder: "zz" and "zz/inner" collide: zz cannot be both a file and the folder of zz/inner',
    });
    expect(await exec(server, body)).toEqual({ status: 200, release: BEFORE_LATEST.at(-1) });
    await sleep(500);
    expect(logLines(server, 'registry: release refused').map((line) => line.release)).toEqual([reference]);

    hostile.honest();
    await waitFor(async () => ((await exec(server, body)).release === LATEST ? true : undefined), RETRIED_WITHIN, `${LATEST} served`);
    expect((await readyz(server)).body.registry.refused).toEqual({});
    console.info(`registry-lies: zz and zz/inner refused in ${await ok()} polls, logged once: ${ready.body.registry.refused[reference]}`);
  }, 120_000);
});
