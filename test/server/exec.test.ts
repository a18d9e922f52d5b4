/** POST …/exec over real HTTP: the seed example of every collection, formats, headers, warnings, strict. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadBundles } from '../../src/bundle/load.js';
import type { ManifestCheck } from '../../src/manifest/kube-check.js';
import { readLimits } from '../../src/server/config.js';
import { collectionOfKind, examplesIn, facetsOf, facetsWriting, repositoriesIn } from '../helpers/repos.js';
import { execPath, problemOf, shippedBundles, startTestServer, type TestServer } from '../helpers/server.js';

let server: TestServer;
let seeds: Array<{
  repository: string;
  collection: string;
  request: Record<string, unknown>;
  digest: string;
  release: string;
  check: ManifestCheck;
}>;
beforeAll(async () => {
  server = await startTestServer();
  seeds = loadBundles(await shippedBundles()).flatMap((loaded) =>
    loaded.bundle.collections.map((collection) => ({
      repository: loaded.bundle.repository.name,
      collection: collection.name,
      request: collection.examples.find((example) => example.name === 'seed')!.request,
      digest: loaded.bundle.digest,
      release: loaded.bundle.repository.release,
      // The kind's own check: kubernetes-models for built-in kinds, the CRD for custom resources.
      check: loaded.collections.get(collection.name)!.manifestCheck!,
    })),
  );
});
afterAll(() => server.close());

// A Service the API server takes (a ClusterIP Service needs its ports): the Service collection's seed,
// its entry and a facet whose section writes the ports, all read from repos/.
const SERVICE = collectionOfKind('Service');
const SERVICE_ID = SERVICE.seed.globalvars![SERVICE.variable]!;
const PORTS_FACET = facetsWriting(SERVICE, 'spec.ports').at(-1)!;
const TYPE_FACET = facetsWriting(SERVICE, 'spec.type').at(-1)!;
/** The facet every section writing into the Service's spec carries, as the seed's convention has it. */
const SPEC_FACET = facetsWriting(SERVICE, 'spec.ports')[0]!;
const CRD = collectionOfKind('CustomResourceDefinition');
/** The Service seed with `extra` members added to its values entry. */
const serviceSeedWith = (extra: Record<string, unknown>) => ({
  ...SERVICE.seed,
  values: { ...SERVICE.seed.values, [SERVICE_ID]: { ...SERVICE.seed.values[SERVICE_ID], ...extra } },
});

describe('exec', () => {
  it('answers the seed example of every shipped collection with a manifest its kind accepts, in JSON and YAML', async () => {
    expect(seeds.map((seed) => seed.collection).sort()).toEqual(
      repositoriesIn()
        .flatMap((repository) => repository.collections)
        .sort(),
    );
    for (const seed of seeds) {
      const json = await server.request(execPath(seed.repository, seed.collection) + '?format=json', {
        method: 'POST',
        json: seed.request,
      });
      expect(json.status, seed.collection).toBe(200);
      expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(json.headers.get('x-facetform-release')).toBe(seed.release);
      expect(json.headers.get('x-facetform-bundle-digest')).toBe(seed.digest);
      const manifest = (await json.json()) as any;
      expect(Object.keys(manifest).slice(0, 3)).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(seed.check.problems(manifest), seed.collection).toEqual([]);

      const yaml = await server.request(execPath(seed.repository, seed.collection) + '?format=yaml', {
        method: 'POST',
        json: seed.request,
      });
      expect(yaml.status).toBe(200);
      expect(yaml.headers.get('content-type')).toBe('application/yaml');
      expect(parseYaml(await yaml.text())).toEqual(manifest);
    }
  });

  it('answers JSON by default', async () => {
    const response = await server.request(execPath('service-resources', 'service'), {
      method: 'POST',
      json: seeds.find((s) => s.collection === 'service')!.request,
    });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('gives byte-identical bodies for identical requests', async () => {
    const seed = seeds.find((s) => s.collection === 'customresourcedefinition')!;
    const bodies = await Promise.all(
      [1, 2, 3].map(async () =>
        (await server.request(execPath(seed.repository, seed.collection) + '?format=yaml', { method: 'POST', json: seed.request })).text(),
      ),
    );
    expect(new Set(bodies).size).toBe(1);
  });

  it('lists unknown input members in Warning headers and still renders', async () => {
    const response = await server.request(execPath('service-resources', 'service'), {
      method: 'POST',
      json: {
        facets: [PORTS_FACET],
        values: { web: { metadata: { name: 'web' }, spec: { port: 80, ports: [{ port: 80, protocl: 'TCP' }] } } },
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('warning')).toBe(
      '299 - "unknown field \\"/values/web/spec/port\\"", 299 - "unknown field \\"/values/web/spec/ports/0/protocl\\""',
    );
  });

  it('writes Warning text as RFC 9110 quoted-strings of UTF-8 bytes, which a Kubernetes client reads back as the text', async () => {
    const names = ['spéc"x\\y\tz', 'ключ', 'line\nbreak'];
    const response = await server.request(execPath(SERVICE.repository, SERVICE.collection), {
      method: 'POST',
      json: serviceSeedWith(Object.fromEntries(names.map((name) => [name, 1]))),
    });
    expect(response.status).toBe(200);
    // A control character cannot travel in a header: it arrives as the text of its escape.
    expect(readWarnings(response.headers.get('warning')!)).toEqual(
      ['spéc"x\\y\tz', 'ключ', 'line\\u000abreak'].map((member) => `unknown field "/values/${SERVICE_ID}/${member}"`),
    );
  });

  it('sends at most 20 Warning headers, with long pointers cut, however many unknown members there are', async () => {
    const extra = Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`${'k'.repeat(9000)}${index}`, 1]));
    const response = await server.request(execPath(SERVICE.repository, SERVICE.collection), {
      method: 'POST',
      json: serviceSeedWith(extra),
    });
    expect(response.status).toBe(200);
    const warnings = response.headers.get('warning')!.split(/, (?=299 )/);
    expect(warnings).toHaveLength(21);
    expect(warnings[20]).toBe('299 - "80 or more more unknown fields"');
    expect(response.headers.get('warning')!.length).toBeLessThan(8000);
  });

  it('quotes strings in YAML that kubectl would read as booleans or numbers', async () => {
    const data = { a: 'yes', b: 'on', c: 'y', d: '0b101', e: '12:30', f: 'NO', g: '1_000', h: '0777' };
    const response = await server.request(execPath('config-and-storage-resources', 'configmap') + '?format=yaml', {
      method: 'POST',
      json: { facets: ['addon:data'], values: { c: { metadata: { name: 'c' }, data } } },
    });
    const text = await response.text();
    expect(parseYaml(text, { version: '1.1' }).data).toEqual(data);
    expect(text).toContain('a: "yes"');
  });

  it('reports every problem at once, even with a request of the wrong shape', async () => {
    const problem = await problemOf(
      await server.request(execPath('service-resources', 'service'), {
        method: 'POST',
        json: { facets: ['addon:spec', 'nope', 3], values: { w: { metadata: { name: 5 } } } },
      }),
    );
    expect(problem.title).toBe('Invalid request');
    expect(problem.errors!.map((error) => error.pointer)).toEqual(['/facets/1', '/facets/2', '/values/w/metadata/name']);
  });

  it('serves facet lists with repeated entries without remembering each of them', async () => {
    // As long as a list may be (MAX_ITEMS), the new facet included.
    // The facet repeated writes the ports, which the Service's values give (the seed's).
    const facets = Array.from({ length: readLimits({}).maxItems - 1 }, () => PORTS_FACET);
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 50; index++) {
      const response = await server.request(execPath(SERVICE.repository, SERVICE.collection), {
        method: 'POST',
        json: { ...SERVICE.seed, facets: [...facets, [TYPE_FACET, SPEC_FACET][index % 2]!] },
      });
      expect(response.status).toBe(200);
    }
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024);
  });

  it('with strict=true, renders every shipped example: strict refuses unknown members and requires only what the schema requires', async () => {
    const examples = examplesIn();
    expect(new Set(examples.map((example) => example.collection))).toEqual(
      new Set(repositoriesIn().flatMap((repository) => repository.collections)),
    );
    for (const example of examples) {
      const response = await server.request(execPath(example.repository, example.collection) + '?strict=true', {
        method: 'POST',
        json: example.request,
      });
      expect(
        response.status,
        `${example.repository}/${example.collection} example ${example.name}: ${response.status === 200 ? '' : await response.text()}`,
      ).toBe(200);
      expect(response.headers.get('warning')).toBeNull();
    }
  });

  it('with strict=true, refuses unknown members with a 422, and a placeholder the schema does not require stays optional', async () => {
    // A ClusterIP Service needs its ports (the API server refuses one without): the facet that writes them, and ports.
    const ports = [{ port: 80 }];
    const response = await server.request(execPath('service-resources', 'service') + '?strict=true', {
      method: 'POST',
      json: {
        facets: [PORTS_FACET, TYPE_FACET],
        values: { web: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports, tpye: 'NodePort' } } },
      },
    });
    const problem = await problemOf(response);
    expect(problem.status).toBe(422);
    expect(problem.errors).toEqual([
      { pointer: '/values/web/spec/tpye', detail: 'is not a known field (strict=true rejects unknown fields)' },
    ]);
    const fixed = await server.request(execPath('service-resources', 'service') + '?strict=true', {
      method: 'POST',
      json: {
        facets: [PORTS_FACET, TYPE_FACET],
        values: { web: { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports } } },
      },
    });
    expect(fixed.status).toBe(200);
    expect(((await fixed.json()) as any).spec).toEqual({ selector: { app: 'web' }, ports });
  });

  it('answers 422 with every violation as a JSON Pointer into the body', async () => {
    const response = await server.request(execPath(CRD.repository, CRD.collection), {
      method: 'POST',
      json: {
        facets: [facetsWriting(CRD, 'spec.names.shortNames').at(-1)!, 'addon:nope'],
        values: {
          crd: {
            metadata: { name: 7 },
            spec: { group: 'example.com', names: { kind: 'W', shortNames: 'w' }, scope: 'Galaxy', versions: [] },
          },
        },
      },
    });
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ type: '/problems/invalid-values', title: 'Invalid input values', status: 422 });
    expect(problem.errors).toEqual([
      {
        pointer: '/facets/1',
        detail: `"addon:nope" is not a facet of ${CRD.collection}; its facets are ${facetsOf(CRD).join(', ')}`,
      },
      { pointer: '/values/crd/metadata/name', detail: 'must be string' },
      { pointer: '/values/crd/spec/names/plural', detail: 'is required' },
      { pointer: '/values/crd/spec/names/shortNames', detail: 'must be array' },
      { pointer: '/values/crd/spec/scope', detail: 'must be one of "Namespaced", "Cluster"' },
    ]);
  });

  it('suggests the facet an unknown one most likely meant, as lint does: a misspelling, another letter case, or a missing addon: prefix', async () => {
    const response = await server.request(execPath('service-resources', 'service'), {
      method: 'POST',
      json: { facets: ['addon:prots', 'Addon:Ports', 'ports', 'addon:nothing-like-it'], values: { web: { metadata: { name: 'web' } } } },
    });
    const problem = await problemOf(response);
    expect(problem.status).toBe(422);
    const details = problem.errors!.map((error) => error.detail);
    for (const detail of details.slice(0, 3))
      expect(detail).toMatch(/^"[^"]+" is not a facet of service; its facets are .*; did you mean "addon:ports"\?$/);
    expect(details[3]).not.toContain('did you mean');
  });

  it('checks the request shape: facets strings, values objects, globalvars strings', async () => {
    const problem = await problemOf(
      await server.request(execPath('service-resources', 'service'), {
        method: 'POST',
        json: { facets: 'addon:ports', values: { a: 1 }, globalvars: { __SVC_ID__: 3 } },
      }),
    );
    expect(problem.errors).toEqual([
      { pointer: '/facets', detail: 'must be an array of facet names' },
      { pointer: '/globalvars/__SVC_ID__', detail: 'must be a string naming a key of values' },
      { pointer: '/values/a', detail: 'must be an object' },
    ]);
  });

  it('resolves globalvars and reports a key that values lacks', async () => {
    const problem = await problemOf(
      await server.request(execPath('service-resources', 'service'), {
        method: 'POST',
        json: { values: { web: { metadata: { name: 'w' } } }, globalvars: { __SVC_ID__: 'api' } },
      }),
    );
    expect(problem.errors).toEqual([{ pointer: '/globalvars/__SVC_ID__', detail: 'names "api", which values lacks; values has "web"' }]);
  });

  it('answers 400 listing the formats for an unknown format, and for a bad strict value', async () => {
    const seed = seeds.find((s) => s.collection === 'service')!;
    const format = await problemOf(
      await server.request(execPath('service-resources', 'service') + '?format=xml', { method: 'POST', json: seed.request }),
    );
    expect(format).toMatchObject({
      status: 400,
      detail: 'format "xml" is not supported; use one of json, yaml',
      allowed: ['json', 'yaml'],
    });
    const strict = await problemOf(
      await server.request(execPath('service-resources', 'service') + '?strict=yes', { method: 'POST', json: seed.request }),
    );
    expect(strict.detail).toBe('query parameter strict must be true or false, not "yes"');
  });

  it('renders with a named release and says which release answered', async () => {
    const seed = seeds.find((s) => s.collection === 'service')!;
    const named = await server.request(execPath('service-resources', 'service') + `?release=${seed.release}`, {
      method: 'POST',
      json: seed.request,
    });
    expect(named.headers.get('x-facetform-release')).toBe(seed.release);
    const missing = await problemOf(
      await server.request(execPath('service-resources', 'service') + '?release=9.9.9', { method: 'POST', json: seed.request }),
    );
    expect(missing).toMatchObject({ status: 404, detail: `no release "9.9.9"; known: ${seed.release}` });
  });
});

/**
 * Warning header values as client-go's ParseWarningHeader reads them: `299 - "…"`, the quoted-string
 * unquoted (a backslash takes the next byte as it is), the bytes read as UTF-8. fetch hands header
 * bytes over as Latin-1 characters.
 */
function readWarnings(header: string): string[] {
  const bytes = Buffer.from(header, 'latin1');
  const texts: string[] = [];
  let at = 0;
  while (at < bytes.length) {
    const prefix = bytes.subarray(at, at + 7).toString('latin1');
    if (prefix !== '299 - "') throw new Error(`not a warning at byte ${at}: ${prefix}`);
    at += 7;
    const text: number[] = [];
    for (;;) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('unterminated quoted-string');
      if (byte === 0x22) break;
      if (byte < 0x20 && byte !== 0x09) throw new Error(`control byte ${byte} in a quoted-string`);
      text.push(byte === 0x5c ? bytes[at++]! : byte);
    }
    texts.push(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(text)));
    if (at < bytes.length) {
      if (bytes.subarray(at, at + 2).toString('latin1') !== ', ') throw new Error(`warnings not separated at byte ${at}`);
      at += 2;
    }
  }
  return texts;
}
