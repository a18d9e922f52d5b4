/**
 * src/upgrade/immutable-fields.json itself: well-formed, every path it names a member of the kind's
 * official schema, each kind's entry found in every version of its group.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { kubeModel } from '../../src/kubernetes/kube-models.js';
import { memberType } from '../../src/kubernetes/kind-definitions.js';
import { KubeTypes } from '../../src/kubernetes/kube-types.js';
import data from '../../src/upgrade/immutable-fields.json' with { type: 'json' };
import { parseImmutableFields } from '../../src/upgrade/immutable-fields-file.js';
import { immutableFieldsOf, immutableViolations } from '../../src/upgrade/immutable-fields.js';
import { fromPointer } from '../../src/util/json.js';

function deployment(apiVersion: string, app: string) {
  return {
    apiVersion,
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { selector: { matchLabels: { app } }, template: { metadata: { labels: { app } } } },
  };
}

describe('the data file', () => {
  const withField = (kind: string, index: number, change: (field: Record<string, unknown>) => void) => {
    const copy = structuredClone(data) as { kinds: Array<{ kind: string; fields: Array<Record<string, unknown>> }> };
    change(copy.kinds.find((entry) => entry.kind === kind)!.fields[index]!);
    return copy;
  };

  it('is read without a problem', () => {
    expect(parseImmutableFields(data).size).toBe(data.kinds.length);
  });

  it('fails loudly on a misspelt entry, naming it', () => {
    const misspelt = withField('StorageClass', 2, (field) => {
      field.defualt = field.default;
      delete field.default;
    });
    expect(() => parseImmutableFields(misspelt)).toThrow(
      /kinds\[\d+\] \(storage\.k8s\.io StorageClass\) fields\[2\]: unknown member "defualt"/,
    );
    expect(() => parseImmutableFields(withField('Service', 0, (field) => (field.rule = 'imutable')))).toThrow(
      /\(core Service\) fields\[0\]: "rule" must be/,
    );
    expect(() =>
      parseImmutableFields(withField('Service', 0, (field) => (field.unless = { path: '/spec/type', equals: 'ExternalName', of: 'any' }))),
    ).toThrow(/\(core Service\) fields\[0\] unless: "of" must be one of/);
    expect(() => parseImmutableFields(withField('Job', 0, (field) => (field.path = 'spec/selector')))).toThrow(
      /\(batch Job\) fields\[0\]: "path" must be a string/,
    );
  });

  describe('names members of the official schemas', () => {
    let types: KubeTypes;
    const apiVersionOf = (group: string, kind: string) =>
      ['v1', 'v1beta1', 'v1beta2']
        .map((version) => (group === '' ? version : `${group}/${version}`))
        .find((apiVersion) => kubeModel(apiVersion, kind) !== undefined);

    beforeAll(() => {
      // One program per API group version, tens of seconds for all of them when the kind schema cache is cold.
      types = KubeTypes.shared().add(
        data.kinds.map(({ group, kind }) => ({ apiVersion: apiVersionOf(group, kind) ?? `${group}/?`, kind })),
      );
    }, 300_000);

    it.each(data.kinds.map((entry) => [`${entry.group || 'core'} ${entry.kind}`, entry] as const))('%s', (_, entry) => {
      const apiVersion = apiVersionOf(entry.group, entry.kind);
      expect(apiVersion, `kubernetes-models knows ${entry.kind} of ${entry.group || 'the core group'}`).toBeDefined();
      const schema = types.kindSchema(apiVersion!, entry.kind)!;
      const conditions = (entry.fields as Array<{ when?: unknown; unless?: unknown }>).flatMap((field) =>
        [field.when, field.unless].flat().filter((condition) => condition !== undefined),
      ) as Array<{ path: string }>;
      const unknown = [...entry.fields, ...conditions]
        .map(({ path }) => path)
        .filter((path) => memberType(schema, fromPointer(path)) === undefined);
      expect(unknown).toEqual([]);
    });
  });
});

describe('the kinds it names', () => {
  it('matches kinds by API group in every version, and only in their group', () => {
    const v1 = immutableViolations('apps/v1', 'Deployment', deployment('apps/v1', 'web'), deployment('apps/v1', 'site'));
    const v1beta2 = immutableViolations(
      'apps/v1beta2',
      'Deployment',
      deployment('apps/v1beta2', 'web'),
      deployment('apps/v1beta2', 'site'),
    );
    expect(v1.map((violation) => violation.pointer)).toEqual(['/spec/selector']);
    expect(v1beta2).toEqual(v1);
    expect(immutableFieldsOf('apps/v1beta2', 'Deployment')).toEqual(immutableFieldsOf('apps/v1', 'Deployment'));
    expect(immutableFieldsOf('storage.k8s.io/v1beta1', 'StorageClass')).toEqual(immutableFieldsOf('storage.k8s.io/v1', 'StorageClass'));
    expect(immutableFieldsOf('example.com/v1', 'StorageClass')).toEqual([]);
  });
});
