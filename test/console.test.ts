/**
 * The console end to end, in a real browser: Debian's chromium driven by playwright-core, against
 * the real server over HTTP. Leaves a screenshot in test-artifacts/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredRelease, repositoriesIn, ROOT } from './helpers/repos.js';
import { KEY, startTestServer, type TestServer } from './helpers/server.js';

const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
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
const text = (selector: string) => page.locator(selector).textContent().then((value) => value ?? '');

// CI installs chromium (.ci/run): there a missing browser fails the test instead of skipping it.
describe.skipIf(!existsSync(CHROMIUM) && process.env.CI !== 'true')('console in a real browser', () => {
  beforeAll(async () => {
    server = await startTestServer();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the key as not set, renders a Service with ports, and shows a field error where it belongs', async () => {
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    await page.goto(server.url + '/');
    expect(await text('#key-state')).toBe('not set');

    await page.fill('#api-key', KEY);
    await page.press('#api-key', 'Enter');
    await eventually(async () => (await text('#key-state')) === 'set', 'the key to be set');
    expect(await page.evaluate(() => sessionStorage.getItem('facetform.apiKey'))).toBe(KEY);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    await eventually(async () => (await page.locator('#collection option').count()) > 0, 'the collections');
    await page.selectOption('#repository', { label: `service-resources v1 (${declaredRelease('service-resources')})` });
    const serviceCollections = repositoriesIn().find((repository) => repository.name === 'service-resources')!.collections.length;
    await eventually(async () => (await page.locator('#collection option').count()) === serviceCollections, 'the service-resources collections');
    await page.selectOption('#collection', { label: 'service (Service)' });
    await eventually(async () => (await page.locator('#facet-list input').count()) === 7, 'the facets of service');
    expect(await page.locator('#facet-master').isChecked()).toBe(true);
    expect(await page.locator('#facet-master').isDisabled()).toBe(true);

    // Start from no optional facet, then tick addon:ports.
    for (const facet of ['addon-spec', 'addon-ports']) if (await page.locator(`#facet-${facet}`).isChecked()) await page.uncheck(`#facet-${facet}`);
    await eventually(async () => (await text('#manifest')).includes('kind: Service') && !(await text('#manifest')).includes('ports:'), 'a manifest without ports');
    await page.check('#facet-addon-ports');
    await eventually(async () => (await text('#manifest')).includes('ports:'), 'ports in the manifest');
    expect(await text('#manifest')).toContain('targetPort: 8080');
    expect(await text('#command')).toContain('-H "X-APIKEY: $API_KEY"');
    expect(await text('#command')).toContain('| kubectl apply -f -');
    expect(await text('#command')).not.toContain(KEY);

    const port = page.locator('[data-pointer="/values/web/spec/ports/0/port"]');
    await port.fill('http');
    const error = page.locator('.field:has([data-pointer="/values/web/spec/ports/0/port"]) .field-error');
    await eventually(async () => (await error.count()) === 1 && (await error.textContent()) === 'must be integer', 'the error next to the port field');
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
    values.web.spec.port = 80;
    await page.fill('#values-json', JSON.stringify(values));
    await eventually(async () => (await text('#warnings')).includes('unknown field "/values/web/spec/port"'), 'the warning');
    values.web.spec.ports[0].port = 'http';
    await page.fill('#values-json', JSON.stringify(values));
    await eventually(async () => (await page.locator('#json-errors').isVisible()) && (await text('#json-errors')).includes('/values/web/spec/ports/0/port: must be integer'), 'the error under the JSON editor');
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
});
