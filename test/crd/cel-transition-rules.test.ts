/** x-kubernetes-validations transition rules (those reading oldSelf) run on an update as the API server runs them. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CelRules } from '../../src/crd/cel-rules.js';
import { readCrd } from '../../src/crd/crd.js';
import { customResourceCheck } from '../../src/crd/crd-check.js';
import { ManifestCheck } from '../../src/manifest/kube-check.js';
import { SourceFile } from '../../src/repository/source-file.js';
import { check, forbidden, invalid, manifest, specWith, transition } from '../helpers/cel-rules.js';

describe('transition rules (oldSelf), as the API server runs them on an update', () => {
  const immutable = (schema: Record<string, unknown>, message = 'cannot be changed') => ({
    ...schema,
    'x-kubernetes-validations': [{ rule: 'self == oldSelf', message }],
  });

  it('refuse a change with self == oldSelf, and allow an equal value and a value absent or null on either side', () => {
    const schema = specWith({ bucket: immutable({ type: 'string', nullable: true }, 'the bucket cannot be changed') }, []);
    expect(transition(schema, { bucket: 'a' }, { bucket: 'b' })).toEqual([
      { pointer: '/spec/bucket', detail: invalid('string', 'the bucket cannot be changed') },
    ]);
    expect(transition(schema, { bucket: 'a' }, { bucket: 'a' })).toEqual([]);
    expect(transition(schema, {}, { bucket: 'b' })).toEqual([]);
    expect(transition(schema, { bucket: 'a' }, {})).toEqual([]);
    expect(transition(schema, { bucket: null }, { bucket: 'b' })).toEqual([]);
    expect(transition(schema, undefined, { bucket: 'b' })).toEqual([]);
  });

  it("point at the rule's fieldPath in the new manifest, with its reason", () => {
    const schema = specWith({ bucket: { type: 'string' } }, [
      {
        rule: 'self.bucket == oldSelf.bucket',
        message: 'the bucket cannot be changed',
        fieldPath: '.bucket',
        reason: 'FieldValueForbidden',
      },
    ]);
    expect(transition(schema, { bucket: 'a' }, { bucket: 'b' })).toEqual([
      { pointer: '/spec/bucket', detail: forbidden('the bucket cannot be changed'), reason: 'FieldValueForbidden' },
    ]);
  });

  it('correlate map values (additionalProperties) by key', () => {
    const schema = specWith(
      {
        limits: {
          type: 'object',
          additionalProperties: {
            type: 'integer',
            'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'a limit only grows' }],
          },
        },
      },
      [],
    );
    expect(transition(schema, { limits: { cpu: 2, 'memory/max': 4 } }, { limits: { 'memory/max': 3, cpu: 2, disk: 1 } })).toEqual([
      { pointer: '/spec/limits/memory~1max', detail: invalid('integer', 'a limit only grows') },
    ]);
  });

  it('correlate the elements of a keyed list (x-kubernetes-list-type: map) by their keys: reordered, they still correlate; an element only in the new list runs no rule', () => {
    const users = {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'realm'],
      items: {
        type: 'object',
        required: ['name', 'realm'],
        properties: { name: { type: 'string' }, realm: { type: 'string' }, role: immutable({ type: 'string' }, 'a user keeps its role') },
      },
    };
    const schema = specWith({ users }, []);
    const before = {
      users: [
        { name: 'app', realm: 'db', role: 'read' },
        { name: 'ops', realm: 'db', role: 'admin' },
      ],
    };
    const after = {
      users: [
        { name: 'ops', realm: 'db', role: 'admin' },
        { name: 'app', realm: 'db', role: 'write' },
        { name: 'app', realm: 'web', role: 'admin' },
      ],
    };
    expect(transition(schema, before, after)).toEqual([
      { pointer: '/spec/users/1/role', detail: invalid('string', 'a user keeps its role') },
    ]);
  });

  it('run no rule below a list whose elements cannot be correlated (atomic, set): the API server refuses such a CRD; a rule on the list itself runs', () => {
    // Bounded: without maxItems and maxLength the API server refuses these rules for their estimated cost too.
    const schema = specWith(
      {
        names: { type: 'array', maxItems: 10, items: immutable({ type: 'string', maxLength: 10 }) },
        tags: {
          type: 'array',
          maxItems: 10,
          'x-kubernetes-list-type': 'set',
          items: { type: 'object', properties: { key: immutable({ type: 'string', maxLength: 10 }) } },
        },
        order: immutable({ type: 'array', items: { type: 'string' } }, 'the order cannot be changed'),
      },
      [],
    );
    const compiled = CelRules.compile(schema as never);
    expect(compiled.problems.map((problem) => [problem.pointer, problem.message])).toEqual([
      [
        '/properties/spec/properties/names/items/x-kubernetes-validations/0/rule',
        'rule "self == oldSelf" uses oldSelf below the list /spec/names, whose elements cannot be told apart between the old and the new object (its x-kubernetes-list-type is atomic, not map)',
      ],
      [
        '/properties/spec/properties/tags/items/properties/key/x-kubernetes-validations/0/rule',
        'rule "self == oldSelf" uses oldSelf below the list /spec/tags, whose elements cannot be told apart between the old and the new object (its x-kubernetes-list-type is set, not map)',
      ],
    ]);
    expect(compiled.transitionRules.map((rule) => rule.pointer)).toEqual(['/spec/order']);
    expect(
      compiled.checkTransition(
        manifest({ names: ['a'], tags: [{ key: 'a' }], order: ['a', 'b'] }),
        manifest({ names: ['b'], tags: [{ key: 'b' }], order: ['b', 'a'] }),
      ),
    ).toEqual([{ pointer: '/spec/order', detail: invalid('array', 'the order cannot be changed') }]);
  });

  it('give a messageExpression oldSelf too', () => {
    const schema = specWith(
      {
        replicas: {
          type: 'integer',
          'x-kubernetes-validations': [
            { rule: 'self >= oldSelf', messageExpression: "'replicas may not go down from ' + string(oldSelf) + ' to ' + string(self)" },
          ],
        },
      },
      [],
    );
    expect(transition(schema, { replicas: 5 }, { replicas: 3 })).toEqual([
      { pointer: '/spec/replicas', detail: invalid('integer', 'replicas may not go down from 5 to 3') },
    ]);
  });

  it('fill in defaults on both sides first', () => {
    const schema = specWith({ mode: immutable({ type: 'string', default: 'A' }, 'the mode cannot be changed') }, []);
    expect(transition(schema, {}, { mode: 'B' })).toEqual([
      { pointer: '/spec/mode', detail: invalid('string', 'the mode cannot be changed') },
    ]);
    expect(transition(schema, { mode: 'A' }, {})).toEqual([]);
    expect(transition(schema, {}, {})).toEqual([]);
  });

  it('are not run by check(), and rules over self alone are not run by checkTransition()', () => {
    const schema = specWith({ n: { type: 'integer' } }, [
      { rule: 'self.n > 0', message: 'n is positive' },
      { rule: 'self.n >= oldSelf.n', message: 'n never goes down' },
    ]);
    expect(check(schema, { n: 0 }).map((problem) => problem.detail)).toEqual([invalid('object', 'n is positive')]);
    expect(transition(schema, { n: 5 }, { n: 0 }).map((problem) => problem.detail)).toEqual([invalid('object', 'n never goes down')]);
  });

  it('type oldSelf as self: a member the schema does not declare does not compile', () => {
    const compiled = CelRules.compile(specWith({ n: { type: 'integer' } }, [{ rule: 'self.n == oldSelf.m' }]) as never);
    expect(compiled.problems.map((problem) => problem.message)).toEqual([
      'rule "self.n == oldSelf.m" does not compile: undefined field \'m\'',
    ]);
  });

  it('skip and list a rule with optionalOldSelf or optional syntax (CEL optionals, which @bufbuild/cel does not have); optionalOldSelf on a rule without oldSelf is a CRD problem', () => {
    const compiled = CelRules.compile(
      specWith({ n: { type: 'integer' } }, [
        { rule: '!oldSelf.hasValue() || self.n >= oldSelf.value().n', optionalOldSelf: true },
        { rule: 'self.n > 0', optionalOldSelf: true },
        { rule: 'self.n >= oldSelf.n', optionalOldSelf: false },
        { rule: 'self.?n.orValue(0) >= oldSelf.?n.orValue(0)' },
      ]) as never,
    );
    expect(compiled.problems.map((problem) => [problem.pointer, problem.message])).toEqual([
      ['/properties/spec/x-kubernetes-validations/1/optionalOldSelf', 'optionalOldSelf may not be set if oldSelf is not used in rule'],
    ]);
    expect(compiled.skipped).toEqual([
      {
        pointer: '/properties/spec/x-kubernetes-validations/0',
        at: '/spec',
        rule: '!oldSelf.hasValue() || self.n >= oldSelf.value().n',
        reason:
          'uses optionalOldSelf: oldSelf is then a CEL optional, which @bufbuild/cel does not have (with it the API server runs the rule on a create too)',
        transition: true,
      },
      {
        pointer: '/properties/spec/x-kubernetes-validations/3',
        at: '/spec',
        rule: 'self.?n.orValue(0) >= oldSelf.?n.orValue(0)',
        reason: 'uses optional syntax (.? or [?]), which @bufbuild/cel does not parse',
        transition: true,
      },
    ]);
    expect(compiled.transitionRules).toEqual([{ pointer: '/spec', rule: 'self.n >= oldSelf.n' }]);
  });

  describe('the shipped BackupPolicy CRD', () => {
    const crdFile = path.join(import.meta.dirname, '../../repos/extend-resources/crds/backuppolicies.yaml');
    const policyVersion = readCrd(new SourceFile(crdFile).value).crd!.versions[0]!;
    const policy = (bucket: string, schedule = '@daily') => ({
      apiVersion: 'platform.facetform.dev/v1',
      kind: 'BackupPolicy',
      metadata: { name: 'nightly' },
      spec: { schedule, targets: [{ kind: 'Deployment', name: 'web' }], storage: { bucket } },
    });

    it('refuses changing spec.storage.bucket with its message, and allows other changes', () => {
      const compiled = CelRules.compile(policyVersion.schema, policyVersion.schemaPointer);
      expect(compiled.skipped).toEqual([]);
      expect(compiled.transitionRules).toEqual([
        { pointer: '/spec/storage/bucket', rule: 'self == oldSelf', message: 'the bucket of a policy cannot be changed' },
      ]);
      expect(compiled.checkTransition(policy('backups-a'), policy('backups-b'))).toEqual([
        { pointer: '/spec/storage/bucket', detail: invalid('string', 'the bucket of a policy cannot be changed') },
      ]);
      expect(compiled.checkTransition(policy('backups-a'), policy('backups-a', '0 3 * * *'))).toEqual([]);
    });

    it('is what ManifestCheck.transitionProblems says for it; a built-in kind has none', () => {
      const check = customResourceCheck('BackupPolicy', {
        crd: 'backuppolicies.platform.facetform.dev',
        version: 'v1',
        definitions: { BackupPolicy: { type: 'object' } },
        openAPIV3Schema: policyVersion.schema,
      });
      expect(check.transitionProblems(policy('backups-a'), policy('backups-b'))).toEqual([
        { pointer: '/spec/storage/bucket', detail: invalid('string', 'the bucket of a policy cannot be changed') },
      ]);
      expect(check.problems(policy('backups-b'))).toEqual([]);
      const configMap = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data });
      expect(ManifestCheck.forKind('v1', 'ConfigMap')!.transitionProblems(configMap({ a: '1' }), configMap({ a: '2' }))).toEqual([]);
    });
  });
});
