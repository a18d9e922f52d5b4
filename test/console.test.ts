/**
 * The console end to end, in a real browser: Debian's chromium driven by playwright-core, against
 * the real server over HTTP. Leaves a screenshot in test-artifacts/.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { toPointer } from '../src/util/json.js';
import {
  collectionOfKind,
  declaredRelease,
  facetsWriting,
  repositoriesIn,
  ROOT,
  type ShippedCollection,
  SHIPPED_REPOS,
} from './helpers/repos.js';
import { BASE, KEY, startTestServer, type TestServer } from './helpers/server.js';
import { launchChromium, withoutChromium } from './helpers/tools.js';

const ARTIFACTS = path.join(ROOT, 'test-artifacts');

let server: TestServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

/** Waits until `check` holds, polling; fails with what it last saw. */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
const text = (selector: string) =>
  page
    .locator(selector)
    .textContent()
    .then((value) => value ?? '');
const field = (pointer: string) => page.locator(`#values-form [data-pointer="${pointer}"]`);

// What the console is checked against comes from repos/ and the served schema, not from the console's own reading of them.

/** The Service collection of repos/, its sections (facets, $description, the input paths their placeholders read) and its seed. */
const SERVICE = collectionOfKind('Service');
const SERVICE_SECTIONS = readdirSync(path.join(SHIPPED_REPOS, SERVICE.repository, SERVICE.collection, 'sections'))
  .sort()
  .map((file) => {
    const section = JSON.parse(readFileSync(path.join(SHIPPED_REPOS, SERVICE.repository, SERVICE.collection, 'sections', file), 'utf8'));
    const references = [...JSON.stringify(section).matchAll(/\{\{([^}]*)\}\}/g)].flatMap((match) =>
      match[1]!.split('??').map((reference) => reference.trim()),
    );
    const inputs = references
      .filter((reference) => reference.startsWith(`${SERVICE.variable}.`))
      .map((reference) => reference.slice(SERVICE.variable.length + 1));
    return { name: file.replace(/\.json$/, ''), facets: section.facets as string[], description: section.$description as string, inputs };
  });
const ENTRY = SERVICE.seed.globalvars![SERVICE.variable]!;
const pointerOf = (path: string) => `/values/${ENTRY}/${path.split('.').join('/')}`;
const ENTRY_VALUES = SERVICE.seed.values[ENTRY];
/** The facet of the section that writes the Service's ports (its most specific one). */
const PORTS_FACET = facetsWriting(SERVICE, 'spec.ports').at(-1)!;

/** A schema node with its $ref followed and its allOf parts joined (properties, required, enum). */
function deref(node: any, root: any): any {
  if (node === undefined) return undefined;
  let result = { ...node };
  if (node.$ref)
    result = {
      ...deref(
        node.$ref
          .split('/')
          .slice(1)
          .reduce((at: any, key: string) => at[key], root),
        root,
      ),
      ...result,
      $ref: undefined,
    };
  for (const part of node.allOf ?? []) {
    const other = deref(part, root);
    result = {
      ...other,
      ...result,
      properties: { ...other.properties, ...result.properties },
      required: [...(result.required ?? []), ...(other.required ?? [])],
    };
  }
  return result;
}
/** The schema of an input path (`spec.type`), or undefined. */
function schemaAt(root: any, inputPath: string): any {
  let node = deref(root, root);
  for (const segment of inputPath.split('.')) node = node && deref(/^\d+$/.test(segment) ? node.items : node.properties?.[segment], root);
  return node;
}
async function servedSchema(): Promise<any> {
  return (await server.request(`${BASE}/${SERVICE.repository}/v1/resources/collections/${SERVICE.collection}/schema`)).json();
}

/** Opens the console on the Service collection, the key already in the tab's sessionStorage. */
async function openService(): Promise<void> {
  await page.goto(server.url + '/console');
  await eventually(async () => (await page.locator('#repository option').count()) > 0, 'the repositories');
  await page.selectOption('#repository', { label: `${SERVICE.repository} v1 (${declaredRelease(SERVICE.repository)})` });
  await eventually(
    async () => (await page.locator(`#collection option:has-text("${SERVICE.collection} (Service)")`).count()) === 1,
    'the collections',
  );
  await page.selectOption('#collection', { label: `${SERVICE.collection} (Service)` });
  await eventually(
    async () => (await page.locator('#facet-list input').count()) === new Set(SERVICE_SECTIONS.flatMap((section) => section.facets)).size,
    'the facets',
  );
  await eventually(async () => (await text('#render-state')).startsWith('rendered'), 'the seed to render');
}
const facetId = (facet: string) => `#facet-${facet.replace(/[^a-z0-9-]/g, '-')}`;

/** A new tab of the console with the key entered. */
async function consoleTab(viewport = { width: 1440, height: 1000 }, permissions: string[] = []): Promise<Page> {
  const context = await browser.newContext({ viewport, permissions });
  const tab = await context.newPage();
  tab.on('pageerror', (error) => pageErrors.push(error.message));
  await tab.goto(server.url + '/console');
  await tab.fill('#api-key', KEY);
  await tab.press('#api-key', 'Enter');
  return tab;
}

/** Opens a collection in a tab, and waits for its first manifest: the answer to a render request of that collection. */
async function openCollection(tab: Page, found: ShippedCollection, kind: string): Promise<void> {
  const rendered = tab.waitForResponse(
    (response) =>
      response.request().method() === 'POST' &&
      response.url().includes(`/${found.repository}/v1/resources/collections/${found.collection}/exec`) &&
      response.ok(),
  );
  const exactly = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  const repository = tab.locator('#repository option', { hasText: exactly(`${found.repository} v1 (`) });
  await repository.waitFor({ state: 'attached' });
  await tab.selectOption('#repository', (await repository.getAttribute('value'))!);
  const collection = tab.locator('#collection option', { hasText: exactly(`${found.collection} (${kind})`) });
  await collection.waitFor({ state: 'attached' });
  await tab.selectOption('#collection', (await collection.getAttribute('value'))!);
  await rendered;
  await tab.locator('#render-state', { hasText: /^rendered/ }).waitFor();
}

/** The value at a path of a request body's values entry, from a request the page sent. */
const sentValue = (postData: string | null, entry: string, segments: readonly string[]): unknown => {
  try {
    return segments.reduce((at: any, key) => at?.[key], JSON.parse(postData ?? '{}').values?.[entry]);
  } catch {
    return undefined;
  }
};

/** Every string anywhere in a JSON value. */
const stringsIn = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value !== null && typeof value === 'object' ? Object.values(value).flatMap(stringsIn) : [];

// CI installs chromium (.ci/run): there a missing browser fails the test instead of skipping it.
describe.skipIf(withoutChromium)('console in a real browser', () => {
  beforeAll(async () => {
    server = await startTestServer();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the key as not set, renders a Service with ports, and shows a field error where it belongs', async () => {
    const failed: string[] = [];
    // Chromium reports every fetch with HEAD as failed (net::ERR_ABORTED) though it got its answer: those say nothing here.
    page.on('requestfailed', (request) => void (request.method() !== 'HEAD' && failed.push(request.url())));
    await page.goto(server.url + '/');
    expect(await text('#key-state')).toBe('not set');

    await page.fill('#api-key', KEY);
    await page.press('#api-key', 'Enter');
    await eventually(async () => (await text('#key-state')) === 'set', 'the key to be set');
    expect(await page.evaluate(() => sessionStorage.getItem('facetform.apiKey'))).toBe(KEY);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    await eventually(async () => (await page.locator('#collection option').count()) > 0, 'the collections');
    await page.selectOption('#repository', { label: `${SERVICE.repository} v1 (${declaredRelease(SERVICE.repository)})` });
    const serviceCollections = repositoriesIn().find((repository) => repository.name === SERVICE.repository)!.collections.length;
    await eventually(
      async () => (await page.locator('#collection option').count()) === serviceCollections,
      `the ${SERVICE.repository} collections`,
    );
    await page.selectOption('#collection', { label: `${SERVICE.collection} (Service)` });
    await eventually(
      async () => (await page.locator('#facet-list input').count()) === new Set(SERVICE_SECTIONS.flatMap((section) => section.facets)).size,
      'the facets of service',
    );
    expect(await page.locator('#facet-master').isChecked()).toBe(true);
    expect(await page.locator('#facet-master').isDisabled()).toBe(true);

    // Start from no optional facet, then tick the facet whose section writes the ports.
    for (const box of await page.locator('#facet-list input:not([disabled])').all()) if (await box.isChecked()) await box.uncheck();
    // A ClusterIP Service without ports is refused, as the API server refuses it: the answer names the member.
    await eventually(
      async () => (await text('[data-error-for="/facets"]')).includes('/spec/ports'),
      'the refusal of a Service without ports',
    );
    await page.check(facetId(PORTS_FACET));
    await eventually(async () => (await text('#manifest')).includes('ports:'), 'ports in the manifest');
    expect(await text('#manifest')).toContain(`targetPort: ${ENTRY_VALUES.spec.ports[0].targetPort}`);
    expect(await text('#command')).toContain('-H "X-APIKEY: $API_KEY"');
    expect(await text('#command')).toContain('| kubectl apply -f -');
    expect(await text('#command')).not.toContain(KEY);

    const port = field(pointerOf('spec.ports.0.port'));
    await port.fill('http');
    const error = page.locator(`.field:has([data-pointer="${pointerOf('spec.ports.0.port')}"]) .field-error`);
    await eventually(
      async () => (await error.count()) === 1 && (await error.textContent()) === 'must be integer',
      'the error next to the port field',
    );
    expect(await port.getAttribute('aria-invalid')).toBe('true');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-field-error.png'), fullPage: true });
    await port.fill('80');
    await eventually(async () => (await error.count()) === 0, 'the error to clear');
    await page.screenshot({ path: path.join(ARTIFACTS, 'console.png'), fullPage: true });
    expect(failed).toEqual([]);
  });

  it('offers the schema, the TypeScript declaration and the warnings of unknown fields', async () => {
    await page.click('summary:has-text("TypeScript declaration")');
    expect(await text('#types')).toContain('export interface ServiceValues');
    expect(JSON.parse(await text('#schema')).title).toBe('ServiceValues');
    await page.check('input[name="mode"][value="json"]');
    const values = JSON.parse(await page.inputValue('#values-json'));
    values[ENTRY].spec.port = 80;
    values[ENTRY].spec['pörts "b"'] = [];
    await page.fill('#values-json', JSON.stringify(values));
    await eventually(async () => (await text('#warnings')).includes(`unknown field "${pointerOf('spec.port')}"`), 'the warning');
    // Warning headers carry UTF-8 bytes and quoted pairs; the page shows the text.
    await eventually(
      async () => (await text('#warnings')).includes(`unknown field "/values/${ENTRY}/spec/pörts "b""`),
      'the non-ASCII warning',
    );
    delete values[ENTRY].spec['pörts "b"'];
    values[ENTRY].spec.ports[0].port = 'http';
    await page.fill('#values-json', JSON.stringify(values));
    await eventually(
      async () =>
        (await page.locator('#json-errors').isVisible()) &&
        (await text('#json-errors')).includes(`${pointerOf('spec.ports.0.port')}: must be integer`),
      'the error under the JSON editor',
    );
    await page.fill('#values-json', 'null');
    await eventually(async () => (await text('[data-error-for="/values/json"]')).includes('values must be an object'), 'the shape error');
    await page.check('input[name="mode"][value="form"]');
    expect(await page.locator('#values-form fieldset').count()).toBeGreaterThan(0);
    expect(pageErrors).toEqual([]);
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.goto(server.url + '/console');
    await phone.fill('#api-key', KEY);
    await phone.press('#api-key', 'Enter');
    await eventually(async () => (await phone.locator('#manifest').textContent())!.includes('kind:'), 'a manifest on the phone');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await phone.screenshot({ path: path.join(ARTIFACTS, 'console-phone.png'), fullPage: true });
    await phone.close();
  });

  it('builds the form from the schema: ticking a facet adds the fields its sections read, an enum is a select, required members are marked', async () => {
    const schema = await servedSchema();
    const masterInputs = SERVICE_SECTIONS.filter((section) => section.facets.includes('master')).flatMap((section) => section.inputs);
    // A facet, with the fewest sections, that reads an input with an enum that no master section reads.
    const candidates = SERVICE_SECTIONS.flatMap((section) =>
      section.inputs
        .filter((input) => !masterInputs.includes(input) && schemaAt(schema, input)?.enum)
        .map((input) => ({ input, facets: section.facets.filter((facet) => facet !== 'master') })),
    );
    const sectionsOf = (facet: string) => SERVICE_SECTIONS.filter((section) => section.facets.includes(facet)).length;
    const [{ facet, input }] = candidates
      .flatMap(({ input, facets }) => facets.map((facet) => ({ facet, input })))
      .sort((a, b) => sectionsOf(a.facet) - sectionsOf(b.facet));
    const choices: string[] = schemaAt(schema, input).enum;
    // The console learns which inputs a section reads from the collection document.
    const served = await (await server.request(`${BASE}/${SERVICE.repository}/v1/resources/collections/${SERVICE.collection}`)).json();
    expect(
      served.sections.map((section: { name: string; inputs?: string[] }) => [section.name, section.inputs]).sort(),
      'GET …/collections/<collection> lists the input paths each section reads (sections[].inputs)',
    ).toEqual(SERVICE_SECTIONS.map((section) => [section.name, [...new Set(section.inputs)].sort()]).sort());

    await openService();
    for (const box of await page.locator('#facet-list input:not([disabled])').all()) if (await box.isChecked()) await box.uncheck();
    await eventually(async () => (await field(pointerOf(input)).count()) === 0, `no field for ${input} without ${facet}`);
    await page.check(facetId(facet));
    await eventually(async () => (await field(pointerOf(input)).count()) === 1, `a field for ${input} once ${facet} is ticked`);
    const select = field(pointerOf(input));
    expect(await select.evaluate((element) => element.tagName)).toBe('SELECT');
    const options = await select.locator('option').allTextContents();
    expect(options.filter((option) => choices.includes(option))).toEqual(choices);
    expect(await select.getAttribute('aria-required')).toBe(
      schemaAt(schema, input.split('.').slice(0, -1).join('.'))?.required?.includes(input.split('.').at(-1)) ? 'true' : null,
    );
    // Its description is its help text.
    const help = await select.getAttribute('aria-describedby');
    expect(schemaAt(schema, input).description).toContain((await page.locator(`[id="${help}"]`).textContent())!.trim());

    // Choosing sends it: the next render request carries the choice at its input, and its answer is shown. The
    // answer itself may not change (with no other facet ticked the API server may refuse the Service as before).
    const choice = choices.at(-1)!;
    const sent = page.waitForResponse((response) => {
      if (response.request().method() !== 'POST') return false;
      try {
        const body = JSON.parse(response.request().postData() ?? '{}');
        return input.split('.').reduce((at: any, key) => at?.[key], body.values?.[ENTRY]) === choice;
      } catch {
        return false;
      }
    });
    await select.selectOption({ label: choice });
    const answer = await sent;
    if (answer.ok())
      await eventually(
        async () => (await text('#manifest')).includes(`${input.split('.').at(-1)}: ${choice}`),
        `${input} = ${choice} shown`,
      );
    else await eventually(async () => !/^render/.test(await text('#render-state')), `the ${answer.status()} shown`);

    // A required member below a master input is marked, and shown even without a value.
    const [required] = masterInputs
      .flatMap((master) => (schemaAt(schema, master)?.required ?? []).map((name: string) => `${master}.${name}`))
      .filter((path) => ['string', 'integer'].includes(schemaAt(schema, path)?.type));
    expect(required, 'a master input with a required string or integer member').toBeDefined();
    const requiredField = field(pointerOf(required!));
    expect(await requiredField.getAttribute('aria-required')).toBe('true');
    expect(await page.locator(`label[for="${await requiredField.getAttribute('id')}"]`).textContent()).toMatch(/required/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'console-schema-form.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('lists each section a facet adds, each with its own description', async () => {
    // The facet that adds the most sections.
    const facets = [...new Set(SERVICE_SECTIONS.flatMap((section) => section.facets))].filter((facet) => facet !== 'master');
    const sectionsOf = (facet: string) => SERVICE_SECTIONS.filter((section) => section.facets.includes(facet));
    const facet = facets.sort((a, b) => sectionsOf(b).length - sectionsOf(a).length)[0]!;
    expect(sectionsOf(facet).length).toBeGreaterThan(1);
    const items = await page.locator(`${facetId(facet)}-note li`).allTextContents();
    expect(items).toHaveLength(sectionsOf(facet).length);
    for (const [index, section] of sectionsOf(facet).entries()) expect(items[index]).toContain(`${section.name}: ${section.description}`);
    expect(await page.locator(facetId(facet)).getAttribute('aria-describedby')).toBe(`${facetId(facet).slice(1)}-note`);
  });

  it('drops an old error once the values are fixed and sent again', async () => {
    await openService();
    await page.check('input[name="mode"][value="json"]');
    const good = await page.inputValue('#values-json');
    // An integer leaf of the seed's values, given a string.
    const schema = await servedSchema();
    const leaves = (value: unknown, at: string): string[] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, child]) => leaves(child, at ? `${at}.${key}` : key))
        : [at];
    const integer = leaves(SERVICE.seed.values[ENTRY], '').find((leaf) => schemaAt(schema, leaf)?.type === 'integer')!;
    const bad = JSON.parse(good);
    integer
      .split('.')
      .slice(0, -1)
      .reduce((node: any, key) => node[key], bad[ENTRY])[integer.split('.').at(-1)!] = 'http';
    await page.fill('#values-json', JSON.stringify(bad, null, 2));
    await eventually(
      async () =>
        (await page.locator('#json-errors').isVisible()) && (await text('#json-errors')).includes(`${pointerOf(integer)}: must be integer`),
      'the server error',
    );

    // Half-fixed: the text does not parse, so nothing is sent, and the server's complaint about the last request goes.
    await page.fill('#values-json', good.slice(0, -2));
    await eventually(async () => await page.locator('[data-error-for="/values/json"]').isVisible(), 'the JSON error');
    expect(await page.locator('#json-errors').isVisible()).toBe(false);
    expect(await text('#render-state')).toMatch(/^Not sent/);

    // Fixed: no error is left anywhere, and the manifest is fresh.
    await page.fill('#values-json', good);
    await eventually(async () => (await text('#render-state')).startsWith('rendered'), 'the fixed request to render');
    const visibleErrors = () =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('.field-error'))
          .filter((element) => element.offsetParent !== null)
          .map((element) => element.textContent),
      );
    expect(await visibleErrors()).toEqual([]);
    expect(await page.locator('#manifest.stale').count()).toBe(0);

    // The same in the form: an error next to the field goes once the field is fixed and the form shows no stale JSON complaint.
    await page.fill('#values-json', 'null');
    await eventually(async () => (await text('[data-error-for="/values/json"]')).includes('values must be an object'), 'the shape error');
    await page.check('input[name="mode"][value="form"]');
    await field(pointerOf(integer)).fill('http');
    await eventually(async () => (await visibleErrors()).includes('must be integer'), 'the error next to the field');
    await field(pointerOf(integer)).fill(String(integer.split('.').reduce((node: any, key) => node[key], SERVICE.seed.values[ENTRY])));
    await eventually(
      async () => (await text('#render-state')).startsWith('rendered') && (await visibleErrors()).length === 0,
      'no error once fixed',
    );
    await page.check('input[name="mode"][value="json"]');
    expect(await page.locator('[data-error-for="/values/json"]').isVisible()).toBe(false);
    await page.check('input[name="mode"][value="form"]');
  });

  it('says that the API key is missing or wrong when the server refuses it', async () => {
    const other = await browser.newPage();
    await other.goto(server.url + '/console');
    await other.fill('#api-key', `${KEY}-wrong`);
    await other.press('#api-key', 'Enter');
    const hint = () =>
      other
        .locator('#pick-hint')
        .textContent()
        .then((value) => value ?? '');
    await eventually(async () => (await hint()).includes('missing or wrong'), 'the key message');
    expect(await hint()).toMatch(/API key/);
    expect(await hint()).not.toMatch(/401/);
    expect(await other.locator('#key-state').textContent()).toBe('rejected');
    // The right key then works.
    await other.fill('#api-key', KEY);
    await other.press('#api-key', 'Enter');
    await eventually(
      async () => (await other.locator('#collection option').count()) > 0 && (await hint()) === '',
      'the collections with the right key',
    );
    await other.close();
  });

  it('is usable with the keyboard: every control can take focus and shows it', async () => {
    await page.goto(server.url + '/console');
    const focused: string[] = [];
    for (let index = 0; index < 8; index++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => `${document.activeElement?.tagName}#${document.activeElement?.id}`));
    }
    expect(focused.slice(0, 2)).toEqual(['INPUT#api-key', 'BUTTON#']);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
  });
  it('keeps the lines of a multi-line value: in a text area, in the request, the manifest and the copied command', async () => {
    // The ConfigMap's seed, with a value of several lines (a properties file): the console opens on it.
    const CONFIGMAP = collectionOfKind('ConfigMap');
    const entry = CONFIGMAP.seed.globalvars![CONFIGMAP.variable]!;
    const multiLine = (value: unknown, at: string[]): Array<[string[], string]> =>
      typeof value === 'string'
        ? value.includes('\n')
          ? [[at, value]]
          : []
        : value !== null && typeof value === 'object'
          ? Object.entries(value).flatMap(([key, child]) => multiLine(child, [...at, key]))
          : [];
    const [[segments, original]] = multiLine(CONFIGMAP.seed.values[entry], []) as [[string[], string]];
    expect(original, 'a seed value with line breaks').toBeDefined();
    const tab = await consoleTab(undefined, ['clipboard-read', 'clipboard-write']);
    await openCollection(tab, CONFIGMAP, 'ConfigMap');
    const area = tab.locator(`#values-form [data-pointer="${toPointer(['values', entry, ...segments])}"]`);
    expect(await area.evaluate((element) => element.tagName)).toBe('TEXTAREA');
    expect(await area.inputValue()).toBe(original);

    // Typed at its end: a line, Enter, another line. The request carries every line.
    const typed = `${original}log.level=debug\nx=1`;
    const sent = tab.waitForResponse(
      (response) => response.request().method() === 'POST' && sentValue(response.request().postData(), entry, segments) === typed,
    );
    await area.focus();
    await tab.keyboard.press('Control+End');
    await tab.keyboard.type('log.level=debug');
    await tab.keyboard.press('Enter');
    await tab.keyboard.type('x=1');
    expect((await sent).ok()).toBe(true);
    await tab.locator('#manifest', { hasText: 'x=1' }).waitFor();
    expect(stringsIn(parseYaml((await tab.locator('#manifest').textContent())!))).toContain(typed);

    // The copied command, run as it is up to kubectl, sends the same lines and gets the same manifest.
    await tab.click('#copy-command');
    await tab.locator('#copy-state', { hasText: 'command copied' }).waitFor();
    const copied = await tab.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await tab.locator('#command').textContent());
    expect(copied).toMatch(/ \| kubectl apply -f -$/);
    const { stdout } = await promisify(execFile)('sh', ['-c', copied.replace(/ \| kubectl apply -f -$/, '')], {
      env: { ...process.env, API_KEY: KEY },
    });
    expect(stringsIn(parseYaml(stdout))).toContain(typed);
    expect(stdout).toBe(await tab.locator('#manifest').textContent());

    // A new entry starts on one line; Shift+Enter makes it a text area, and so do pasted lines.
    const mapSegments = segments.slice(0, -1);
    const mapField = `#values-form fieldset[data-pointer="${toPointer(['values', entry, ...mapSegments])}"] > .add input`;
    const newEntry = async (name: string, write: () => Promise<void>, expected: string) => {
      await tab.fill(mapField, name);
      await tab.press(mapField, 'Enter'); // the form is built again with the focus on the new entry
      const added = tab.locator(`#values-form [data-pointer="${toPointer(['values', entry, ...mapSegments, name])}"]`);
      expect(await added.evaluate((element) => [element.tagName, element === document.activeElement])).toEqual(['INPUT', true]);
      const sentLines = tab.waitForResponse(
        (response) =>
          response.request().method() === 'POST' && sentValue(response.request().postData(), entry, [...mapSegments, name]) === expected,
      );
      await write();
      await sentLines;
      expect(await added.evaluate((element) => element.tagName)).toBe('TEXTAREA');
      expect(await added.inputValue()).toBe(expected);
      expect(await tab.locator(`label[for="${await added.getAttribute('id')}"]`).textContent(), 'its label').toBe(name);
    };
    await newEntry(
      'notes',
      async () => {
        await tab.keyboard.type('a');
        await tab.keyboard.press('Shift+Enter');
        await tab.keyboard.type('b');
      },
      'a\nb',
    );
    await newEntry(
      'pasted',
      async () => {
        await tab.evaluate(() => navigator.clipboard.writeText('p=1\r\nq=2'));
        await tab.keyboard.press('Control+V');
      },
      'p=1\nq=2',
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    await tab.screenshot({ path: path.join(ARTIFACTS, 'console-multi-line.png'), fullPage: true });
    await tab.context().close();
    expect(pageErrors).toEqual([]);
  });

  for (const viewport of [
    { width: 1400, height: 900 },
    { width: 1024, height: 768 },
    { width: 390, height: 844 },
  ])
    it(`lays out at ${viewport.width} px: nothing empty before a key, selects show their text, a long facet list folded, the manifest in view`, async () => {
      const context = await browser.newContext({ viewport });
      const tab = await context.newPage();
      tab.on('pageerror', (error) => pageErrors.push(error.message));
      await tab.goto(server.url + '/console');
      // Before a key: no empty manifest or command bar, nothing to copy.
      expect(await tab.locator('#key-state').textContent()).toBe('not set');
      for (const bar of ['#manifest', '#command']) expect(await tab.locator(bar).isVisible(), bar).toBe(false);
      for (const button of ['#copy-manifest', '#copy-command']) expect(await tab.locator(button).isDisabled(), button).toBe(true);
      mkdirSync(ARTIFACTS, { recursive: true });
      await tab.screenshot({ path: path.join(ARTIFACTS, `console-${viewport.width}-no-key.png`), fullPage: true });

      await tab.fill('#api-key', KEY);
      await tab.press('#api-key', 'Enter');
      await openCollection(tab, SERVICE, 'Service');
      for (const button of ['#copy-manifest', '#copy-command']) expect(await tab.locator(button).isDisabled(), button).toBe(false);

      // Each repository (with its release, which was cut off), and the chosen collection and example, fit their select with room for its arrow.
      const overflowing = await tab.evaluate(() =>
        ['repository', 'collection', 'example'].flatMap((id) => {
          const select = document.getElementById(id) as HTMLSelectElement;
          const style = getComputedStyle(select);
          const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
          const options = id === 'repository' ? [...select.options] : [...select.selectedOptions];
          return options.flatMap((option) => {
            const probe = Object.assign(document.createElement('span'), { textContent: option.textContent });
            probe.style.font = style.font;
            probe.style.whiteSpace = 'pre';
            document.body.append(probe);
            const width = probe.getBoundingClientRect().width;
            probe.remove();
            return width > room ? [`#${id} "${option.textContent}": ${Math.round(width)} px of text in ${Math.round(room)} px`] : [];
          });
        }),
      );
      expect(overflowing).toEqual([]);

      // The facet of the most sections lists their names, their descriptions folded until asked for.
      const sectionsOf = (facet: string) => SERVICE_SECTIONS.filter((section) => section.facets.includes(facet));
      const widest = [...new Set(SERVICE_SECTIONS.flatMap((section) => section.facets))].sort(
        (a, b) => sectionsOf(b).length - sectionsOf(a).length,
      )[0]!;
      const summary = tab.locator(`.facet:has(${facetId(widest)}) summary`);
      for (const section of sectionsOf(widest)) expect(await summary.textContent()).toContain(section.name);
      expect(await tab.locator(`${facetId(widest)}-note`).isVisible()).toBe(false);
      await summary.click();
      expect(await tab.locator(`${facetId(widest)}-note`).isVisible()).toBe(true);
      await summary.click();

      // Ticked (the seed may tick it already), it makes the form long; at the end of the form the manifest is in view,
      // beside it (not at 390 px: one column).
      if (!(await tab.isChecked(facetId(widest)))) {
        const sent = tab.waitForResponse(
          (response) =>
            response.request().method() === 'POST' && JSON.parse(response.request().postData() ?? '{}').facets?.includes(widest),
        );
        await tab.check(facetId(widest));
        await sent;
      }
      await tab.locator('#values-form [data-pointer]').last().scrollIntoViewIfNeeded();
      const box = async (selector: string) => (await tab.locator(selector).boundingBox())!;
      const [manifest, values, output] = [await box('#manifest'), await box('.panel.values'), await box('.panel.output')];
      if (viewport.width >= 1024) {
        expect(output.x, 'the manifest beside the values').toBeGreaterThanOrEqual(values.x + values.width);
        expect(manifest.y, 'the manifest within the window').toBeGreaterThanOrEqual(0);
        expect(manifest.y + Math.min(manifest.height, 100)).toBeLessThanOrEqual(viewport.height);
      } else {
        expect(output.y, 'the manifest under the values').toBeGreaterThanOrEqual(values.y + values.height);
      }
      expect(await tab.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling').toBe(true);
      await tab.screenshot({ path: path.join(ARTIFACTS, `console-${viewport.width}-form-end.png`) });
      await tab.evaluate(() => window.scrollTo(0, 0));
      await tab.screenshot({ path: path.join(ARTIFACTS, `console-${viewport.width}.png`), fullPage: true });
      console.log(
        `console at ${viewport.width} px with ${widest}: ${await tab.evaluate(() => document.documentElement.scrollHeight)} px tall`,
      );
      await context.close();
      expect(pageErrors).toEqual([]);
    });
});
