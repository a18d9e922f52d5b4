/**
 * `facetform dev` as its own process on a copy of repos/: the working tree served as a marked
 * preview, a saved section served again without a release, a lint error that keeps the last good
 * preview serving, nothing written to dist/, and the console refreshing itself in a real browser.
 * Collections and releases come from repos/; times are printed, not asserted (benchmarks are for speed).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceDigest } from '../src/repository/source-digest.js';
import { killServers, type ServerProcess, spawnServer } from './helpers/process.js';
import { collectionOfKind, declaredRelease, DEMO_REPOS, repoCopy, ROOT, SHIPPED_REPOS } from './helpers/repos.js';
import { launchChromium, withoutChromium } from './helpers/tools.js';

const DIST = path.join(ROOT, 'dist');
/** How long a saved file may take to be served, at most, on a loaded machine; the figure itself is printed. */
const SERVED_WITHIN_MS = 10_000;

/** Paths, sizes and modification times of every file under dir. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const stat = statSync(full);
        files[path.relative(dir, full)] = `${stat.size} ${stat.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return files;
}

async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = SERVED_WITHIN_MS): Promise<T> {
  const started = Date.now();
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// The Service collection of the shipped repositories, wherever it lives, and its master section.
const service = collectionOfKind('Service');
const sectionsDir = (repos: string) => path.join(repos, service.repository, service.collection, 'sections');
const masterFile = (repos: string) => {
  const dir = sectionsDir(repos);
  const name = readdirSync(dir)
    .sort()
    .find((file) => (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { facets: string[] }).facets.includes('master'))!;
  return path.join(dir, name);
};

/** The master section with a label `facetform-dev: <token>` in metadata. */
function labelled(master: string, token: string): string {
  const section = JSON.parse(master) as Record<string, any>;
  if (typeof section.metadata === 'string') section.metadata = { name: `{{ ${service.variable}.metadata.name }}` };
  section.metadata.labels = { ...(typeof section.metadata.labels === 'object' ? section.metadata.labels : {}), 'facetform-dev': token };
  return JSON.stringify(section, null, 2) + '\n';
}

describe('facetform dev', () => {
  let repos: string;
  let dev: ServerProcess;
  let distBefore: Record<string, string>;
  /** The master section of the Service collection in the copy, and its text as shipped. */
  let master: string;
  let originalMaster: string;
  /** The digest of the preview of the Service's repository as first compiled. */
  let firstDigest: string;
  const exec = (body: unknown = service.seed, headers: Record<string, string> = {}) =>
    fetch(`${dev.url}/apis/repos/facetform/${service.repository}/v1/resources/collections/${service.collection}/exec`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const label = async () =>
    ((await (await exec()).json()) as { metadata: { labels?: Record<string, string> } }).metadata.labels?.['facetform-dev'];

  beforeAll(async () => {
    repos = repoCopy(SHIPPED_REPOS);
    master = masterFile(repos);
    originalMaster = readFileSync(master, 'utf8');
    distBefore = snapshot(DIST);
    // The first compile generates the Kubernetes types: seconds, more on a busy machine.
    dev = await spawnServer({}, undefined, 'pipe', ['dev', '--repos', repos]);
  }, 180_000);
  afterAll(killServers);

  it('serves the working tree as an unreleased preview: every answer marked, discovery too, no key needed on loopback', async () => {
    const release = declaredRelease(service.repository, repos);
    const answer = await exec();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('X-Facetform-Preview')).toMatch(/^unreleased working tree of /);
    expect(answer.headers.get('X-Facetform-Release')).toBe(`${release}+dev`);
    expect(((await answer.json()) as { kind: string }).kind).toBe('Service');
    firstDigest = answer.headers.get('X-Facetform-Bundle-Digest')!;

    // Unchanged sources compile to the very bundle the build made of them, when dist/ has it.
    const index = JSON.parse(readFileSync(path.join(DIST, 'index.json'), 'utf8')) as {
      sources: Record<string, string>;
      bundles: Array<{ repository: string; release: string; digest: string }>;
    };
    if (index.sources[service.repository] === sourceDigest(path.join(repos, service.repository))) {
      const built = index.bundles.find((entry) => entry.repository === service.repository && entry.release === release)!;
      expect(answer.headers.get('X-Facetform-Bundle-Digest')).toBe(built.digest);
    }

    for (const route of [
      '/apis/repos',
      '/apis/repos/facetform',
      `/apis/repos/facetform/${service.repository}/v1/resources/collections`,
      `/apis/repos/facetform/${service.repository}/v1/resources/collections/${service.collection}`,
    ]) {
      const found = await fetch(dev.url + route);
      expect(found.status, route).toBe(200);
      expect(found.headers.get('X-Facetform-Preview'), route).toMatch(/^unreleased working tree of /);
      expect(((await found.json()) as { preview?: string }).preview, route).toMatch(/^unreleased working tree of .*not a release/);
    }
    const types = await fetch(`${dev.url}/apis/repos/facetform/${service.repository}/v1/resources/collections/${service.collection}/types`);
    expect(types.status).toBe(200);
    expect(await types.text()).toContain(`release ${release}+dev`);
    const health = await fetch(`${dev.url}/healthz`);
    expect(health.headers.get('X-Facetform-Preview')).toMatch(/^unreleased/);
    const problem = await fetch(`${dev.url}/apis/repos/facetform/no-such-repository/v1/resources/collections`);
    expect(problem.status).toBe(404);
    expect(problem.headers.get('X-Facetform-Preview')).toMatch(/^unreleased/);
    expect(dev.stderr()).toMatch(/previewing \d+ repositor(y|ies) \(\d+ collections?\) of .* on http:\/\/127\.0\.0\.1:\d+ /);
  });

  it('serves a saved section again, without a release, and tells the console', async () => {
    const events = new AbortController();
    const stream = await fetch(`${dev.url}/dev/events`, { signal: events.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('Content-Type')).toMatch(/^text\/event-stream/);
    const reader = stream.body!.getReader();
    let received = '';
    const statuses = async () => {
      const { value } = await reader.read();
      received += new TextDecoder().decode(value);
      return [...received.matchAll(/^data: (.*)$/gm)].map(
        (match) => JSON.parse(match[1]!) as { generation: number; repositories: Array<{ name: string; errors: number }> },
      );
    };
    const [first] = await statuses();
    expect(first!.repositories.map((repository) => repository.name)).toContain(service.repository);

    expect(await label()).toBeUndefined();
    const token = `t${Date.now()}`;
    const saved = performance.now();
    writeFileSync(master, labelled(originalMaster, token));
    await eventually(async () => ((await label()) === token ? true : undefined), 'the saved section to be served');
    const measured = performance.now() - saved;
    const logged = await eventually(
      async () => /rebuilt (\S+) \S+ in (\d+) ms from the save to serving it \(compile (\d+) ms/.exec(dev.stderr()) ?? undefined,
      'the rebuild line',
    );
    console.log(
      `facetform dev: save → new answer ${Math.round(measured)} ms seen by the client (polling every 20 ms); dev says: ${logged[0]}`,
    );
    expect(logged[1]).toBe(service.repository);

    const later = await eventually(
      async () => (await statuses()).find((status) => status.generation > first!.generation),
      'a status event after the rebuild',
    );
    expect(later.repositories.find((repository) => repository.name === service.repository)!.errors).toBe(0);
    events.abort();
  });

  it('prints a lint error as it appears and keeps the last good preview serving; fixing it serves the fix', async () => {
    const before = await label();
    expect(before).toBeDefined();
    const file = master;
    writeFileSync(file, '{ "facets": ["master"], ');
    const printed = await eventually(
      async () => (dev.stderr().includes(`${file}:`) && /keeps serving until they are fixed/.test(dev.stderr()) ? dev.stderr() : undefined),
      'the lint error',
    );
    expect(printed).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+ error `));
    expect(printed).toContain(`${service.repository}: `);
    expect(await label()).toBe(before);

    // Back to the file as shipped: a rebuild that reuses the Kubernetes types and validators makes
    // the very bundle the first compile made.
    writeFileSync(file, originalMaster);
    await eventually(async () => ((await label()) === undefined ? true : undefined), 'the fixed section to be served');
    expect((await exec()).headers.get('X-Facetform-Bundle-Digest')).toBe(firstDigest);
  });

  // Debian's chromium, as test/console.test.ts drives it; skipped when it is not installed (CI installs it).
  it.skipIf(withoutChromium)(
    'shows the console as a preview, and the console refreshes itself after a save',
    async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
        const pageErrors: string[] = [];
        page.on('pageerror', (error) => pageErrors.push(error.message));
        const text = (selector: string) =>
          page
            .locator(selector)
            .textContent()
            .then((value) => value ?? '');
        await page.goto(dev.url + '/');
        await page.locator('#dev-preview').waitFor();
        expect(await text('#dev-preview')).toMatch(/unreleased working tree of .*Not a release/);

        // No key is asked for on loopback: the console loads the collections at once.
        const repository = page.locator('#repository option', { hasText: service.repository });
        await eventually(async () => ((await repository.count()) > 0 ? true : undefined), 'the repositories');
        // None was entered, and none is stored: the page says that none is needed rather than "set".
        expect(await text('#key-state')).toBe('not needed');
        expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
        await page.selectOption('#repository', (await repository.first().getAttribute('value'))!);
        const collection = page.locator('#collection option', { hasText: `${service.collection} (` });
        await eventually(async () => ((await collection.count()) > 0 ? true : undefined), 'the collections');
        await page.selectOption('#collection', (await collection.first().getAttribute('value'))!);
        await eventually(async () => ((await text('#manifest')).includes('kind: Service') ? true : undefined), 'the manifest');

        const token = `c${Date.now()}`;
        const saved = performance.now();
        writeFileSync(master, labelled(originalMaster, token));
        await eventually(
          async () => ((await text('#manifest')).includes(`facetform-dev: ${token}`) ? true : undefined),
          'the console to show the saved section',
        );
        console.log(`facetform dev: save → console shows it ${Math.round(performance.now() - saved)} ms`);
        await page.screenshot({ path: path.join(ROOT, 'test-artifacts', 'dev-console.png'), fullPage: true });

        writeFileSync(master, '{ "facets": ');
        await eventually(
          async () => ((await text('#dev-preview')).includes('lint error') ? true : undefined),
          'the banner to say the lint error',
        );
        expect(await text('#manifest')).toContain(`facetform-dev: ${token}`);
        writeFileSync(master, originalMaster);
        await eventually(
          async () =>
            !(await text('#dev-preview')).includes('lint error') && !(await text('#manifest')).includes('facetform-dev') ? true : undefined,
          'the console to show the fixed section',
        );
        expect(pageErrors).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    120_000,
  );

  it('writes nothing to dist/', () => {
    expect(snapshot(DIST)).toEqual(distBefore);
    expect(existsSync(path.join(repos, 'dist'))).toBe(false);
  });

  it('asks for the key when one is configured, as serve does', async () => {
    const key = 'dev-test-key-0123456789';
    const keyed = await spawnServer({ API_KEYS: key }, undefined, 'pipe', ['dev', '--repos', repoCopy(DEMO_REPOS)]);
    const [repository] = readdirSync(DEMO_REPOS);
    const route = `${keyed.url}/apis/repos/facetform/${repository}/v1/resources/collections`;
    expect((await fetch(route)).status).toBe(401);
    const answer = await fetch(route, { headers: { 'X-APIKEY': key } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('X-Facetform-Release')).toBe(`${declaredRelease(repository!, DEMO_REPOS)}+dev`);
    // The console's event stream needs no key: it says names and counts only.
    const events = new AbortController();
    expect((await fetch(`${keyed.url}/dev/events`, { signal: events.signal })).status).toBe(200);
    events.abort();
    keyed.child.kill('SIGTERM');
    expect(await keyed.exited).toBe(0);
  }, 120_000);

  it('refuses a repositories folder that is not there, without a stack', async () => {
    await expect(spawnServer({}, undefined, 'pipe', ['dev', '--repos', path.join(ROOT, 'no-such-folder')])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^facetform dev: repositories folder .*no-such-folder does not exist/),
    });
  });
});
