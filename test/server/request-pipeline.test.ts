/**
 * The parts of the request pipeline that replaced a library's general path with a cheaper one of
 * our own (issue 20) must answer exactly as the library did: the access line as pino writes it, the
 * histograms as prom-client scrapes and sums them, the hot routes as @koa/router matches them, and
 * a remembered API key forgotten the moment it is taken out.
 */
import { pino } from 'pino';
import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import Router from '@koa/router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiKeys } from '../../src/server/api-keys.js';
import { LabelledHistogram } from '../../src/server/histogram.js';
import { requestLog, type RequestLogFields } from '../../src/server/pipeline/access-log.js';
import { execPath, KEY, startTestServer, type TestServer } from '../helpers/server.js';

function capturingLogger(level: string) {
  const lines: string[] = [];
  const logger = pino({ level, base: { service: 'facetform', pid: 4242 } }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

describe('the access log line', () => {
  const cases: RequestLogFields[] = [
    {
      method: 'POST',
      route: '/apis/repos/:vendor/exec',
      path: '/apis/repos/x/exec',
      status: 200,
      durationMs: 1.234,
      requestId: 'a-1',
      key: 'API_KEYS#1',
    },
    // A path is the caller's: quotes, backslashes, control characters and non-ASCII must be escaped as pino escapes them.
    { method: 'GET', route: 'unmatched', path: '/"q\\u\n\t\u0001é😀', status: 404, durationMs: 0.5, requestId: 'b', key: undefined },
  ];
  for (const fields of cases) {
    it(`is the line pino writes for the same fields (${fields.status})`, () => {
      const ours = capturingLogger('info');
      requestLog(ours.logger)(fields);
      const theirs = capturingLogger('info');
      theirs.logger.info(fields, 'request');
      expect(ours.lines).toHaveLength(1);
      const [line] = ours.lines;
      expect(line!.endsWith('}\n')).toBe(true);
      // The same members in the same order; only the time may differ.
      const parsed = JSON.parse(line!);
      const expected = JSON.parse(theirs.lines[0]!);
      expect(Object.keys(parsed)).toEqual(Object.keys(expected));
      expect({ ...parsed, time: 0 }).toEqual({ ...expected, time: 0 });
      expect(line!.replace(/"time":\d+/, '')).toBe(theirs.lines[0]!.replace(/"time":\d+/, ''));
    });
  }

  it('writes nothing when the level is above info', () => {
    const { logger, lines } = capturingLogger('warn');
    requestLog(logger)(cases[0]!);
    expect(lines).toEqual([]);
  });
});

describe('the histograms kept in arrays', () => {
  const buckets = [0.001, 0.01, 0.1];
  // Below, on and between bounds, and past the last one.
  const observations: Array<[string, number]> = [
    ['a', 0.0005],
    ['a', 0.001],
    ['b', 0.05],
    ['a', 0.2],
    ['b', 7],
  ];

  function both() {
    const oursRegistry = new Registry();
    const ours = new LabelledHistogram('h_seconds', 'help text', buckets);
    oursRegistry.registerMetric(ours as never);
    const theirsRegistry = new Registry();
    const theirs = new Histogram({ name: 'h_seconds', help: 'help text', labelNames: ['route'], buckets, registers: [theirsRegistry] });
    for (const [route, value] of observations) {
      ours.observe(ours.cellsAt(route) ?? ours.addCells(route, { route }), value);
      theirs.labels(route).observe(value);
    }
    return { oursRegistry, theirsRegistry };
  }

  it('scrape as prom-client Histogram scrapes the same observations', async () => {
    const { oursRegistry, theirsRegistry } = both();
    expect(await oursRegistry.metrics()).toBe(await theirsRegistry.metrics());
  });

  it('sum across workers as prom-client sums its own', async () => {
    const { oursRegistry, theirsRegistry } = both();
    const ours = AggregatorRegistry.aggregate([await oursRegistry.getMetricsAsJSON(), await oursRegistry.getMetricsAsJSON()]);
    const theirs = AggregatorRegistry.aggregate([await theirsRegistry.getMetricsAsJSON(), await theirsRegistry.getMetricsAsJSON()]);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });
});

describe('remembered API keys', () => {
  it('are forgotten when the keys are replaced', () => {
    const keys = ApiKeys.fromPlainKeys(['first-key-0123456789']);
    expect(keys.identify('first-key-0123456789')).toBe('API_KEYS#1');
    expect(keys.identify('first-key-0123456789')).toBe('API_KEYS#1'); // now remembered
    keys.replace(ApiKeys.fromPlainKeys(['second-key-0123456789']));
    expect(keys.identify('first-key-0123456789')).toBeUndefined();
    expect(keys.identify('second-key-0123456789')).toBe('API_KEYS#1');
  });

  it('never remember a wrong key', () => {
    const keys = ApiKeys.fromPlainKeys(['first-key-0123456789']);
    expect(keys.identify('first-key-012345678X')).toBeUndefined();
    expect(keys.identify('first-key-012345678X')).toBeUndefined();
  });
});

describe('hot routes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());
  const seed = { facets: ['addon:ports'], values: { web: { metadata: { name: 'web' }, spec: { ports: [{ port: 80 }] } } } };

  it('decode percent-encoded names as the router does', async () => {
    const plain = await server.request(execPath('service-resources', 'service'), { method: 'POST', json: seed });
    const encoded = await server.request(execPath('service-resources', 'serv%69ce'), { method: 'POST', json: seed });
    expect(encoded.status).toBe(200);
    expect(await encoded.text()).toBe(await plain.text());
    // The collection route next to it goes through the router and decodes the same way.
    const described = await server.request(execPath('service-resources', 'serv%69ce').replace(/\/exec$/, ''));
    expect(described.status).toBe(200);
  });

  it('match only their own method and exact path, as the router does', async () => {
    const get = await server.request(execPath('service-resources', 'service'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const trailing = await server.request(execPath('service-resources', 'service') + '/', { method: 'POST', json: seed });
    expect(trailing.status).toBe(404);
    const upper = await server.request(execPath('service-resources', 'service').replace('/exec', '/EXEC'), { method: 'POST', json: seed });
    expect(upper.status).toBe(404);
    const head = await fetch(server.url + '/healthz', { method: 'HEAD', headers: { 'X-APIKEY': KEY } });
    expect(head.status).toBe(200);
  });

  it('are answered without the router, a synchronous handler (/healthz) as well as exec', async () => {
    const match = vi.spyOn(Router.prototype, 'match');
    try {
      expect((await server.request('/healthz')).status).toBe(200);
      expect((await server.request(execPath('service-resources', 'service'), { method: 'POST', json: seed })).status).toBe(200);
      expect(match).not.toHaveBeenCalled();
      // Any other route goes through the router, which the spy sees.
      expect((await server.request('/readyz')).status).toBe(200);
      expect(match).toHaveBeenCalled();
    } finally {
      match.mockRestore();
    }
  });
});
