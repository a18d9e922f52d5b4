/** Generated input-value schemas (CONTRACT §5) and the declarations made from them. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundles, type LoadedCollection } from '../src/bundle/load.js';
import { buildInto } from './helpers/build.js';
import { declaredRelease, SHIPPED_REPOS } from './helpers/repos.js';

let dist: string;
const collections = new Map<string, LoadedCollection>();
beforeAll(async () => {
  dist = await buildInto(SHIPPED_REPOS);
  for (const loaded of loadBundles(dist)) for (const [name, collection] of loaded.collections) collections.set(name, collection);
}, 60_000);

const check = (name: string, value: unknown) => collections.get(name)!.validator.check(value, '/values/x');

describe('generated input schemas', () => {
  it("type a Service's spec.ports as ServicePort[], whose items require port", () => {
    expect(check('service', { metadata: { name: 'a' }, spec: { ports: [{ protocol: 'TCP', targetPort: 8080 }] } }).problems).toEqual([
      { pointer: '/values/x/spec/ports/0/port', detail: 'is required' },
    ]);
    expect(check('service', { metadata: { name: 'a' }, spec: { ports: [{ port: '80' }] } }).problems).toEqual([
      { pointer: '/values/x/spec/ports/0/port', detail: 'must be integer' },
    ]);
    expect(check('service', { metadata: { name: 'a' }, spec: { ports: [{ port: 80, targetPort: true }] } }).problems).toEqual([
      { pointer: '/values/x/spec/ports/0/targetPort', detail: 'must be integer or string' },
    ]);
  });

  it('keep the Kubernetes descriptions', () => {
    const schema = collections.get('service')!.collection.schema as any;
    expect(schema.properties.spec.properties.ports.description).toMatch(/^The list of ports that are exposed by this service/);
    expect(schema.definitions.ServicePort.properties.port.description).toBe('The port that will be exposed by this service.');
  });

  it('require a CRD group, names (kind and plural), scope and versions', () => {
    const schema = collections.get('customresourcedefinition')!.collection.schema as any;
    expect(schema.required).toEqual(['metadata', 'spec']);
    expect(schema.properties.spec.required).toEqual(['group', 'names', 'scope', 'versions']);
    expect(schema.properties.spec.properties.names.required).toEqual(['kind', 'plural']);
    expect(
      check('customresourcedefinition', { metadata: { name: 'w' }, spec: { names: { singular: 'w' } } }).problems.map((p) => p.pointer),
    ).toEqual([
      '/values/x/spec/group',
      '/values/x/spec/scope',
      '/values/x/spec/versions',
      '/values/x/spec/names/kind',
      '/values/x/spec/names/plural',
    ]);
  });

  it('require metadata with a name', () => {
    expect(check('configmap', {}).problems).toEqual([{ pointer: '/values/x/metadata', detail: 'is required' }]);
    expect(check('configmap', { metadata: { namespace: 'n' } }).problems).toEqual([
      { pointer: '/values/x/metadata/name', detail: 'is required' },
    ]);
  });

  it('apply $values refinements over the Kubernetes type', () => {
    const schema = collections.get('service')!.collection.schema as any;
    expect(schema.properties.spec.properties.type.enum).toEqual(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']);
    expect(schema.properties.spec.properties.type.description).toMatch(/^type determines how the Service is exposed/);
    expect(check('service', { metadata: { name: 'a' }, spec: { type: 'Magic' } }).problems).toEqual([
      { pointer: '/values/x/spec/type', detail: 'must be one of "ClusterIP", "NodePort", "LoadBalancer", "ExternalName"' },
    ]);
  });

  it('type both paths of a ?? placeholder', () => {
    const schema = collections.get('storageclass')!.collection.schema as any;
    expect(schema.properties.provisioner.type).toBe('string');
    expect(schema.properties.spec.properties.provisioner.type).toBe('string');
    expect(schema.properties.allowVolumeExpansion.type).toBe('boolean');
    expect(schema.properties.spec.properties.allowVolumeExpansion.type).toBe('boolean');
    expect(
      check('storageclass', { metadata: { name: 's' }, allowVolumeExpansion: 'yes', spec: { allowVolumeExpansion: 1 } }).problems.map(
        (p) => p.pointer,
      ),
    ).toEqual(['/values/x/spec/allowVolumeExpansion', '/values/x/allowVolumeExpansion']);
  });

  it('list members the schema does not know, at any depth', () => {
    expect(
      check('service', { metadata: { name: 'a', labelz: {} }, spec: { port: 80, ports: [{ port: 80, prot: 'TCP' }] }, extra: 1 }).unknown,
    ).toEqual(['/values/x/metadata/labelz', '/values/x/spec/port', '/values/x/spec/ports/0/prot', '/values/x/extra']);
    // Free-form maps and any-JSON members have no unknown members.
    expect(check('configmap', { metadata: { name: 'a', labels: { anything: 'x' } }, data: { ANY_KEY: 'v' } }).unknown).toEqual([]);
    expect(
      check('customresourcedefinition', {
        metadata: { name: 'a' },
        spec: { versions: [{ name: 'v1', schema: { openAPIV3Schema: { properties: { x: { type: 'string' } } } } }] },
      }).unknown,
    ).toEqual([]);
  });

  it('become TypeScript declarations with the same shape', () => {
    const declarations = readFileSync(
      path.join(dist, `service-resources/v1/${declaredRelease('service-resources')}/types/service.d.ts`),
      'utf8',
    );
    expect(declarations).toContain('export interface ServiceValues {');
    expect(declarations).toContain('ports?: ServicePort[];');
    expect(declarations).toMatch(/export interface ServicePort \{[\s\S]*?\n  port: number;/);
    expect(declarations).toContain("type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';");
  });
});
