/**
 * A 200 is a manifest the API server takes exactly as answered (CONTRACT §5): values Kubernetes
 * refuses are 422 at the request member, what it accepts is never refused, numbers that do not
 * survive JSON are refused, and the sections' own values are judged at build time. The expected
 * constraints come from the Kubernetes API reference, not from our generated schemas.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRepositories } from '../src/compiler/compile.js';
import { checkManifest } from '../src/manifest/kube-check.js';
import { buildInto } from './helpers/build.js';
import { collectionOfKind, facetsWriting, plantedMember, removeFrom, repoCopy, SHIPPED_REPOS } from './helpers/repos.js';
import { BASE, execPath, problemOf, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const meta = { metadata: { name: 'web' } };
// The API server refuses a ClusterIP or NodePort Service without ports: the facet whose section writes them, from repos/.
const SERVICE = collectionOfKind('Service');
const PORTS_FACET = facetsWriting(SERVICE, 'spec.ports').at(-1)!;
const TYPE_FACET = facetsWriting(SERVICE, 'spec.type').at(-1)!;
const PVC = collectionOfKind('PersistentVolumeClaim');
const STORAGE_FACET = facetsWriting(PVC, 'spec.resources').at(-1)!;
const CONFIGMAP = collectionOfKind('ConfigMap');
const BINARYDATA_FACET = facetsWriting(CONFIGMAP, 'binaryData').at(-1)!;
const CRD = collectionOfKind('CustomResourceDefinition');
/** The collection that renders `kind`, and the facet of the section that writes `member` in it, from repos/. */
const writing = (kind: string, member: string) => {
  const found = collectionOfKind(kind);
  return { repository: found.repository, collection: found.collection, facets: [facetsWriting(found, member).at(-1)!] };
};

/** Each value the API server refuses, the request that carries it, and the request member it is. */
const refused = [
  {
    what: 'a Service port of 80.5 (int32)',
    ...writing('Service', 'spec.ports'),
    pointer: '/values/web/spec/ports/0/port',
    values: { ...meta, spec: { ports: [{ port: 80.5 }] } },
  },
  {
    what: 'a Service protocol HTTP (TCP, UDP or SCTP)',
    ...writing('Service', 'spec.ports'),
    pointer: '/values/web/spec/ports/0/protocol',
    values: { ...meta, spec: { ports: [{ port: 80, protocol: 'HTTP' }] } },
  },
  {
    what: 'a Service port beyond int32',
    ...writing('Service', 'spec.ports'),
    pointer: '/values/web/spec/ports/0/port',
    values: { ...meta, spec: { ports: [{ port: 2 ** 31 }] } },
  },
  {
    what: 'an Ingress backend port number of 80.5',
    ...writing('Ingress', 'spec.rules'),
    pointer: '/values/web/spec/rules/0/http/paths/0/backend/service/port/number',
    values: {
      ...meta,
      spec: {
        rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80.5 } } } }] } }],
      },
    },
  },
  {
    what: 'an Ingress pathType Whatever (Exact, Prefix, ImplementationSpecific)',
    ...writing('Ingress', 'spec.rules'),
    pointer: '/values/web/spec/rules/0/http/paths/0/pathType',
    values: {
      ...meta,
      spec: {
        rules: [{ http: { paths: [{ path: '/', pathType: 'Whatever', backend: { service: { name: 'web', port: { number: 80 } } } }] } }],
      },
    },
  },
  {
    what: 'an Endpoints port of 1.5',
    ...writing('Endpoints', 'subsets'),
    pointer: '/values/web/subsets/0/ports/0/port',
    values: { ...meta, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 1.5 }] }] },
  },
  {
    what: 'a PVC storage of "ten gigs" (a quantity)',
    ...writing('PersistentVolumeClaim', 'spec.resources'),
    pointer: '/values/web/spec/resources/requests/storage',
    values: { ...meta, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: 'ten gigs' } } } },
  },
  {
    what: 'ConfigMap binaryData that is not base64',
    ...writing('ConfigMap', 'binaryData'),
    pointer: '/values/web/binaryData/blob',
    values: { ...meta, binaryData: { blob: 'not base64!' } },
  },
  {
    what: 'a CRD conversion caBundle that is not base64',
    ...writing('CustomResourceDefinition', 'spec.conversion'),
    pointer: '/values/web/spec/conversion/webhook/clientConfig/caBundle',
    values: {
      ...meta,
      spec: {
        group: 'example.com',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
        conversion: {
          strategy: 'Webhook',
          webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://convert.example.com', caBundle: '%%%' } },
        },
      },
    },
  },
  {
    what: 'a metadata.generation beyond 2^53 (int64 that JSON cannot carry exactly)',
    repository: SERVICE.repository,
    collection: SERVICE.collection,
    facets: [],
    pointer: '/values/web/metadata/generation',
    values: { metadata: { name: 'web', generation: 2 ** 53 + 2 } },
  },
];

describe('values the API server refuses', () => {
  for (const entry of refused) {
    it(`answers 422 at the request member for ${entry.what}`, async () => {
      const response = await server.request(execPath(entry.repository, entry.collection), {
        method: 'POST',
        json: { facets: entry.facets, values: { web: entry.values } },
      });
      expect(response.status).toBe(422);
      const problem = await problemOf(response);
      expect(problem.errors!.map((error) => error.pointer)).toEqual([entry.pointer]);
    });
  }
});

describe('what the API server accepts', () => {
  it('renders a CRD whose schema uses enum, default and example of every JSON type and x-kubernetes extensions, even with strict=true', async () => {
    const openAPIV3Schema = {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-validations': [{ rule: 'self.replicas >= 0', message: 'replicas must not be negative' }],
      properties: {
        replicas: { type: 'integer', format: 'int32', enum: [1, 3, 5], default: 1, example: 3, 'x-kubernetes-int-or-string': false },
        mode: { type: 'string', enum: ['fast', 'safe', null], nullable: true, default: 'safe' },
        // The API server refuses a default it would prune, and a list-map key with neither default
        // nor required: this schema keeps both (test/oracle agrees).
        settings: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          default: { retries: [1, 'two', true, null] },
          example: { retries: [] },
          'x-kubernetes-map-type': 'granular',
        },
        items: {
          type: 'array',
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          default: [],
        },
        ratio: { type: 'number', default: 0.5, example: 1e-3 },
        on: { type: 'boolean', default: false, enum: [true, false] },
      },
    };
    // A CRD's name is <plural>.<group>, as the API server requires.
    const values = {
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        names: { kind: 'Widget', plural: 'widgets', singular: 'widget' },
        scope: 'Namespaced',
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }],
      },
    };
    const response = await server.request(execPath(CRD.repository, CRD.collection) + '?strict=true', {
      method: 'POST',
      json: { values: { web: values } },
    });
    expect(response.status).toBe(200);
    const manifest = (await response.json()) as any;
    expect(manifest.spec.versions[0].schema.openAPIV3Schema).toEqual(openAPIV3Schema);
    expect(checkManifest(manifest)).toEqual({ checked: true, errors: [] });
  });

  it('takes int-or-string and quantities in both of their forms', async () => {
    // Two ports: the API server requires each to be named.
    const ports = await server.request(execPath(SERVICE.repository, SERVICE.collection), {
      method: 'POST',
      json: {
        facets: [PORTS_FACET],
        values: {
          web: {
            ...meta,
            spec: {
              ports: [
                { name: 'http', port: 80, targetPort: 'http' },
                { name: 'alt', port: 81, targetPort: 8081 },
              ],
            },
          },
        },
      },
    });
    expect(ports.status).toBe(200);
    for (const storage of ['10Gi', '500M', 1.5, 10]) {
      const response = await server.request(execPath(PVC.repository, PVC.collection), {
        method: 'POST',
        json: {
          facets: [STORAGE_FACET],
          values: { web: { ...meta, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } } },
        },
      });
      expect(response.status, String(storage)).toBe(200);
    }
  });
});

describe('formats as the API server parses them (Go), not as a looser or stricter reading', () => {
  const exec = (repository: string, collection: string, body: unknown) =>
    server.request(execPath(repository, collection), { method: 'POST', json: body });
  // The Service seed (a Service the API server takes) with the timestamp in its metadata.
  const withTimestamp = (creationTimestamp: string) => {
    const request = structuredClone(SERVICE.seed);
    const id = request.globalvars![SERVICE.variable]!;
    request.values[id].metadata.creationTimestamp = creationTimestamp;
    return { request, pointer: `/values/${id}/metadata/creationTimestamp` };
  };
  const withStorage = (storage: string) => ({
    facets: [STORAGE_FACET],
    values: { web: { ...meta, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } } },
  });

  it("refuses date-times Go's RFC 3339 parser refuses, and takes the ones it reads", async () => {
    for (const refused of [
      '2024-01-01 00:00:00Z',
      '2024-01-01t00:00:00z',
      '2024-01-01T00:00:00',
      '2024-01-01T00:00:00+0100',
      '2024-12-31T23:59:60Z',
      '2024-02-30T00:00:00Z',
    ]) {
      const { request, pointer } = withTimestamp(refused);
      const response = await exec(SERVICE.repository, SERVICE.collection, request);
      expect(response.status, refused).toBe(422);
      expect((await problemOf(response)).errors!.map((error) => error.pointer)).toEqual([pointer]);
    }
    for (const taken of ['2024-01-01T00:00:00Z', '2024-02-29T23:59:59.123456+01:00'])
      expect((await exec(SERVICE.repository, SERVICE.collection, withTimestamp(taken).request)).status, taken).toBe(200);
  });

  it("refuses quantities outside apimachinery's grammar, and takes every suffix it has", async () => {
    for (const refused of ['10h', '1da', '1Y', '1e1.5', 'ten gigs', '10 Gi']) {
      const response = await exec(PVC.repository, PVC.collection, withStorage(refused));
      expect(response.status, refused).toBe(422);
    }
    for (const taken of ['10Gi', '1Ei', '100n', '5u', '500m', '1k', '2P', '+1e3', '.5', '1.', '3E-2'])
      expect((await exec(PVC.repository, PVC.collection, withStorage(taken))).status, taken).toBe(200);
  });

  it('takes base64 wrapped in lines, as `base64` writes it and Go decodes it', async () => {
    const wrapped = Buffer.from('x'.repeat(100))
      .toString('base64')
      .replace(/(.{76})/g, '$1\n');
    const response = await exec(CONFIGMAP.repository, CONFIGMAP.collection, {
      facets: [BINARYDATA_FACET],
      values: { web: { ...meta, binaryData: { blob: wrapped, crlf: 'aGVs\r\nbG8=' } } },
    });
    expect(response.status).toBe(200);
  });
});

describe('numbers that do not survive JSON', () => {
  for (const literal of [
    '1e400',
    '-1E+400',
    '1' + '0'.repeat(400),
    '1' + '0'.repeat(250) + 'e60',
    '1e-400',
    '9007199254740993',
    '80.0000000000000001',
  ]) {
    it(`answers 400 naming the pointer of ${literal.slice(0, 20)}, never another number or null`, async () => {
      const body = `{"values":{"web":{"metadata":{"name":"web","annotations":{"a":"b"}},"spec":{"ports":[{"port":${literal}}]}}},"facets":[${JSON.stringify(PORTS_FACET)}]}`;
      const response = await server.request(execPath(SERVICE.repository, SERVICE.collection), {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(response.status).toBe(400);
      expect((await problemOf(response)).detail).toContain('/values/web/spec/ports/0/port');
    });
  }
});

describe("input schemas carry Kubernetes' own constraints", () => {
  it('shows a Service port as an int32 integer and its protocol as an enum, in the schema and the TypeScript declaration', async () => {
    const schema = (await (await server.request(`${BASE}/service-resources/v1/resources/collections/service/schema`)).json()) as any;
    const port = schema.definitions.ServicePort;
    expect(port.properties.port).toMatchObject({ type: 'integer', format: 'int32' });
    expect([...port.properties.protocol.enum].sort()).toEqual(['SCTP', 'TCP', 'UDP']);
    expect(port.required).toEqual(['port']);
    const types = await (await server.request(`${BASE}/service-resources/v1/resources/collections/service/types`)).text();
    const protocol = /protocol\?: ((?:'[A-Z]+'(?: \| )?)+);/.exec(types);
    expect(protocol?.[1]?.split(' | ').sort()).toEqual(["'SCTP'", "'TCP'", "'UDP'"]);
    expect(types).toMatch(/\n  port: number;/);
  });
});

describe('values only the manifest check can judge', () => {
  let dist: string;
  beforeAll(async () => {
    // Text around a placeholder: the input schema takes any scalar for spec.exposure, but only
    // "Node" makes a spec.type ("NodePort") that the kind's own enum allows.
    // It replaces the section that writes spec.type, with its facets.
    const sections = path.join(SERVICE.repository, SERVICE.collection, 'sections');
    const [typeSection] = readdirSync(path.join(SHIPPED_REPOS, sections))
      .map((file) => ({ file, section: JSON.parse(readFileSync(path.join(SHIPPED_REPOS, sections, file), 'utf8')) }))
      .filter(({ section }) => section.spec?.type !== undefined);
    const files: Record<string, string> = {
      [path.join(sections, typeSection!.file)]: JSON.stringify({
        facets: typeSection!.section.facets,
        spec: { type: `{{ ${SERVICE.variable}.spec.exposure }}Port` },
      }),
    };
    // The build renders every example, and the API server refuses a Service whose type its example
    // sets but the copy no longer writes (a NodePort's nodePorts, an ExternalName without ports): the
    // examples that set spec.type say a <x>Port type as spec.exposure x, and one of a type the copy
    // cannot write leaves the copy (ClusterIP, the default, needs no type).
    const examples = path.join(SERVICE.repository, SERVICE.collection, 'examples');
    const unwritable: string[] = [];
    for (const file of readdirSync(path.join(SHIPPED_REPOS, examples))) {
      const example = JSON.parse(readFileSync(path.join(SHIPPED_REPOS, examples, file), 'utf8'));
      const typed = Object.values<any>(example.values ?? {}).filter((entry) => typeof entry?.spec?.type === 'string');
      if (typed.length === 0) continue;
      for (const entry of typed) {
        const type: string = entry.spec.type;
        delete entry.spec.type;
        if (type.endsWith('Port')) entry.spec.exposure = type.slice(0, -'Port'.length);
        else if (type !== 'ClusterIP') unwritable.push(path.join(examples, file));
      }
      files[path.join(examples, file)] = JSON.stringify(example);
    }
    const repos = repoCopy(SHIPPED_REPOS, files);
    for (const file of new Set(unwritable)) removeFrom(repos, file);
    dist = await buildInto(repos);
  });

  it('points a manifest violation at the request member it came from', async () => {
    const widened = await startTestServer({ dist });
    try {
      // A NodePort Service with its ports, which the API server requires.
      const ports = [{ port: 80 }];
      const valid = await widened.request(execPath(SERVICE.repository, SERVICE.collection), {
        method: 'POST',
        json: { facets: [TYPE_FACET, PORTS_FACET], values: { web: { ...meta, spec: { exposure: 'Node', ports } } } },
      });
      expect(valid.status).toBe(200);
      const response = await widened.request(execPath(SERVICE.repository, SERVICE.collection), {
        method: 'POST',
        json: { facets: [TYPE_FACET, PORTS_FACET], values: { web: { ...meta, spec: { exposure: 'Whatever', ports } } } },
      });
      expect(response.status).toBe(422);
      const problem = await problemOf(response);
      expect(problem.errors).toHaveLength(1);
      expect(problem.errors![0]!.pointer).toBe('/values/web/spec/exposure');
      expect(problem.errors![0]!.detail).toContain('/spec/type');
    } finally {
      await widened.close();
    }
  });

  it('asks for the facet whose section writes a member Kubernetes requires', async () => {
    const storageClass = collectionOfKind('StorageClass');
    const response = await server.request(execPath(storageClass.repository, storageClass.collection), {
      method: 'POST',
      json: { values: { web: meta } },
    });
    expect(response.status).toBe(422);
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([
      { pointer: '/facets', detail: expect.stringContaining(facetsWriting(storageClass, 'provisioner').at(-1)!) },
    ]);
  });
  it('points at the values, in the API server’s words, when the facet that writes the member is already chosen', async () => {
    // An Ingress needs rules or a default backend: with every facet that writes its spec chosen, the
    // values lack them, and the answer says so at the values member, not "select a facet".
    const ingress = collectionOfKind('Ingress');
    const facets = facetsWriting(ingress, 'spec');
    const response = await server.request(execPath(ingress.repository, ingress.collection), {
      method: 'POST',
      json: { facets, values: { web: { ...meta, spec: {} } } },
    });
    const problem = await problemOf(response);
    expect(problem.errors).toEqual([
      { pointer: '/values/web/spec', detail: expect.stringContaining('either `defaultBackend` or `rules` must be specified') },
    ]);

    // A basic-auth Secret whose keys are written as stringData: a missing key is missing there.
    const secret = collectionOfKind('Secret');
    const chosen = [...facetsWriting(secret, 'type'), ...facetsWriting(secret, 'stringData')];
    const missing = await problemOf(
      await server.request(execPath(secret.repository, secret.collection), {
        method: 'POST',
        json: { facets: chosen, values: { s: { metadata: { name: 's' }, type: 'kubernetes.io/basic-auth', stringData: { other: 'x' } } } },
      }),
    );
    expect(missing.errors!.map((error) => [error.pointer, error.detail.split(':')[0]])).toEqual([
      ['/values/s/stringData/password', 'Required value'],
      ['/values/s/stringData/username', 'Required value'],
    ]);
  });
});

describe("lint judges the sections' own values", () => {
  // The planted value goes where the Service's sections write its member, or in a new section under a
  // new facet when none does (test/helpers/repos.ts: plantedMember): the file and line come from that,
  // whichever sections authors have added.
  const lint = async (planted: ReturnType<typeof plantedMember>) => {
    const dir = repoCopy(SHIPPED_REPOS, planted.files);
    for (const file of planted.remove) removeFrom(dir, file);
    const { report } = await compileRepositories(dir);
    return report
      .sorted()
      .filter((message) => message.severity === 'error')
      .map((message) => ({ ...message, file: path.relative(dir, message.file) }));
  };

  it('refuses a fixed value Kubernetes refuses, at its line', async () => {
    const planted = plantedMember(SERVICE, 'spec.sessionAffinity', 'Sometimes');
    const errors = await lint(planted);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ file: planted.file, line: planted.line });
    expect(errors[0]!.message).toContain('/spec/sessionAffinity');
  });

  it('refuses an interpolated placeholder where Kubernetes wants an integer', async () => {
    const planted = plantedMember(SERVICE, 'spec.healthCheckNodePort', `3{{ ${SERVICE.variable}.spec.port }}`);
    const errors = await lint(planted);
    expect(errors.map((error) => [error.file, error.line])).toEqual([[planted.file, planted.line]]);
    expect(errors[0]!.message).toContain('integer');
  });
});
