/** x-kubernetes-validations rules compiled once and run on manifests as the API server runs them on a create, and transition rules as on an update. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CelRules } from '../../src/crd/cel-rules.js';
import { readCrd } from '../../src/crd/crd.js';
import { customResourceCheck } from '../../src/crd/crd-check.js';
import { ManifestCheck } from '../../src/manifest/kube-check.js';
import { SourceFile } from '../../src/repository/source-file.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/crds/databases.yaml');
const version = readCrd(new SourceFile(FIXTURE).value).crd!.versions[1]!;
const rules = CelRules.compile(version.schema, version.schemaPointer);

/** A failed rule's detail as the API server words it: the value shown is the `type` of the schema node declaring the rule. */
const invalid = (type: string, message: string) => `Invalid value: "${type}": ${message}`;
/** The detail of a failed rule with reason FieldValueForbidden. */
const forbidden = (message: string) => `Forbidden: ${message}`;
const database = (spec: Record<string, unknown>, name = 'orders') => ({
  apiVersion: 'platform.example.com/v1',
  kind: 'Database',
  metadata: { name },
  spec: { engine: 'postgres', storage: { size: '10Gi' }, ...spec },
});

/** A root schema with `spec` holding the given properties and rules. */
const specWith = (properties: Record<string, unknown>, rules: unknown[], required: string[] = []) => ({
  type: 'object',
  properties: { spec: { type: 'object', properties, required, 'x-kubernetes-validations': rules } },
});
const manifest = (spec: unknown) =>
  spec === undefined
    ? { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' } }
    : { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec };
const check = (schema: Record<string, unknown>, spec: unknown) => CelRules.compile(schema as never).check(manifest(spec));
/** The transition rules `after` fails as an update of `before` (each the manifest's spec; undefined: no spec). */
const transition = (schema: Record<string, unknown>, before: unknown, after: unknown) =>
  CelRules.compile(schema as never).checkTransition(manifest(before), manifest(after));

describe('the rules of a CRD version', () => {
  it("compile once, transition rules apart from those of a create; Kubernetes' library calls (quantity) run too", () => {
    expect(rules.count).toBe(5);
    expect(rules.transitionRules).toEqual([
      { pointer: '/spec', rule: 'self.engine == oldSelf.engine', message: 'the engine cannot be changed' },
    ]);
    expect(rules.checkTransition(database({ engine: 'postgres' }), database({ engine: 'mysql' }))).toEqual([
      { pointer: '/spec', detail: invalid('object', 'the engine cannot be changed') },
    ]);
    expect(rules.problems).toEqual([]);
    expect(rules.skipped).toEqual([]);
    expect(rules.check(database({ storage: { size: '512Mi' } }))).toEqual([
      { pointer: '/spec/storage/size', detail: invalid('string', 'at least 1Gi') },
    ]);
    expect(rules.check(database({ storage: { size: '1Gi' } }))).toEqual([]);
  });

  it('pass a valid manifest', () => {
    expect(rules.check(database({ engine: 'mysql', replicas: 5, users: [{ name: 'app' }], backup: { retentionDays: 30 } }))).toEqual([]);
  });

  it('report each failed rule where it failed: its node, every array element, its fieldPath; with its message', () => {
    const manifest = database(
      { engine: 'mysql', replicas: 7, users: [{ name: 'app' }, { name: 'system:admin' }], backup: { retentionDays: 120 } },
      'a'.repeat(41),
    );
    expect(rules.check(manifest)).toEqual([
      { pointer: '', detail: invalid('object', 'a database name has at most 40 characters') },
      { pointer: '/spec/replicas', detail: invalid('object', 'a mysql cluster has at most 5 replicas') },
      { pointer: '/spec/users/1', detail: forbidden('user names may not start with system:'), reason: 'FieldValueForbidden' },
      { pointer: '/spec/backup', detail: invalid('object', 'a retention of 120 days is more than 90') },
    ]);
  });

  it('see integers as CEL ints and numbers as doubles, as the API server types them', () => {
    const schema = specWith({ count: { type: 'integer' }, ratio: { type: 'number' }, port: { 'x-kubernetes-int-or-string': true } }, [
      { rule: 'self.count * 2 == 6', message: 'count must be 3' },
      { rule: 'self.ratio * 2.0 == 1.0', message: 'ratio must be 0.5' },
      { rule: "type(self.port) == int ? self.port > 1024 : self.port.startsWith('http')", message: 'port above 1024 or named http*' },
    ]);
    expect(check(schema, { count: 3, ratio: 0.5, port: 8080 })).toEqual([]);
    expect(check(schema, { count: 3, ratio: 0.5, port: 'https' })).toEqual([]);
    expect(check(schema, { count: 4, ratio: 0.25, port: 80 }).map((problem) => problem.detail)).toEqual([
      invalid('object', 'count must be 3'),
      invalid('object', 'ratio must be 0.5'),
      invalid('object', 'port above 1024 or named http*'),
    ]);
  });

  it('see maps, escaped member names, timestamps and durations as Kubernetes does', () => {
    const schema = specWith(
      {
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        'max-size': { type: 'integer' },
        startAt: { type: 'string', format: 'date-time' },
        timeout: { type: 'string', format: 'duration' },
      },
      [
        { rule: "self.labels.all(k, k.matches('^[a-z.]+$'))", message: 'label keys are lower case' },
        { rule: "'team' in self.labels", message: 'a team label is required' },
        { rule: 'self.max__dash__size <= 100', message: 'max-size at most 100' },
        { rule: "self.startAt > timestamp('2020-01-01T00:00:00Z')", message: 'starts after 2020' },
        { rule: "self.timeout <= duration('1h')", message: 'times out within an hour' },
      ],
    );
    expect(
      check(schema, { labels: { team: 'db', 'app.name': 'x' }, 'max-size': 100, startAt: '2024-05-01T10:00:00.5+02:00', timeout: '1m30s' }),
    ).toEqual([]);
    expect(
      check(schema, { labels: { Team: 'db' }, 'max-size': 101, startAt: '2019-12-31T23:59:59Z', timeout: '2h' }).map(
        (problem) => problem.detail,
      ),
    ).toEqual([
      invalid('object', 'label keys are lower case'),
      invalid('object', 'a team label is required'),
      invalid('object', 'max-size at most 100'),
      invalid('object', 'starts after 2020'),
      invalid('object', 'times out within an hour'),
    ]);
  });

  it('say an evaluation error, unless the value is one the schema refuses already', () => {
    const schema = specWith(
      { min: { type: 'integer' }, max: { type: 'integer' } },
      [{ rule: 'self.min <= self.max', message: 'min is at most max' }],
      ['min'],
    );
    expect(check(schema, { min: 1 })).toEqual([
      { pointer: '/spec', detail: invalid('object', 'field not found: max evaluating rule: min is at most max') },
    ]);
    // A string where an integer goes, a missing required member: the schema check says so, once.
    expect(check(schema, { min: 'one', max: 2 })).toEqual([]);
    expect(check(schema, { max: 2 })).toEqual([]);
  });

  it('use messageExpression when it gives a string, else message, else the rule', () => {
    const schema = specWith({ n: { type: 'integer' } }, [
      { rule: 'self.n > 1', messageExpression: "'n is ' + string(self.n)" },
      { rule: 'self.n > 2', messageExpression: 'self.n', message: 'n above 2' },
      { rule: 'self.n > 3' },
    ]);
    expect(check(schema, { n: 1 }).map((problem) => problem.detail)).toEqual([
      invalid('object', 'n is 1'),
      invalid('object', 'n above 2'),
      invalid('object', 'failed rule: self.n > 3'),
    ]);
  });

  it('skip absent and null values, and evaluate rules of map values and nested lists', () => {
    const schema = specWith(
      {
        owner: { type: 'string', nullable: true, 'x-kubernetes-validations': [{ rule: "self != ''", message: 'owner is not empty' }] },
        limits: {
          type: 'object',
          additionalProperties: {
            type: 'integer',
            'x-kubernetes-validations': [{ rule: 'self >= 0', message: 'limits are not negative' }],
          },
        },
      },
      [],
    );
    expect(check(schema, { owner: null })).toEqual([]);
    expect(check(schema, { owner: '', limits: { cpu: 1, 'memory/max': -1 } })).toEqual([
      { pointer: '/spec/owner', detail: invalid('string', 'owner is not empty') },
      { pointer: '/spec/limits/memory~1max', detail: invalid('integer', 'limits are not negative') },
    ]);
  });

  it('make a rule that does not compile a CRD problem pointing at the rule', () => {
    const compiled = CelRules.compile(
      specWith(
        { replicas: { type: 'integer' }, items: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } } },
        [
          { rule: 'self.replicas >' },
          { rule: 'self.replica > 1' },
          { rule: 'replicas > 1' },
          { rule: 'self.replicas.isEven()' },
          { rule: "self.items.all(i, i.nmae != '')" },
          { rule: 'self.?replicas.orValue(1) > 0' },
          { rule: "self.items.all(i, i.name != '')", messageExpression: 'self.nothing' },
        ],
      ) as never,
      '/spec/versions/0/schema/openAPIV3Schema',
    );
    expect(compiled.problems.map((problem) => [problem.pointer, problem.message])).toEqual([
      [
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/0/rule',
        'rule "self.replicas >" does not compile: <input>:1:15: found > but expecting end of input',
      ],
      [
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/1/rule',
        'rule "self.replica > 1" does not compile: undefined field \'replica\'',
      ],
      [
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/2/rule',
        'rule "replicas > 1" does not compile: undeclared reference to \'replicas\'',
      ],
      [
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/3/rule',
        'rule "self.replicas.isEven()" does not compile: undeclared reference to \'isEven\'',
      ],
      [
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/4/rule',
        "rule \"self.items.all(i, i.nmae != '')\" does not compile: undefined field 'nmae'",
      ],
      [
        '/spec/versions/0/schema/openAPIV3Schema/properties/spec/x-kubernetes-validations/6/messageExpression',
        "messageExpression does not compile: undefined field 'nothing'",
      ],
    ]);
    expect(compiled.skipped.map((skipped) => skipped.reason)).toEqual([
      'uses optional syntax (.? or [?]), which @bufbuild/cel does not parse',
    ]);
    expect(compiled.count).toBe(1);
  });

  it('see only apiVersion, kind, metadata.name and generateName at the root', () => {
    const compiled = CelRules.compile({
      type: 'object',
      'x-kubernetes-validations': [{ rule: "self.metadata.name.startsWith('db-')" }, { rule: 'has(self.metadata.labels)' }],
    });
    expect(compiled.problems.map((problem) => problem.message)).toEqual([
      'rule "has(self.metadata.labels)" does not compile: undefined field \'labels\'',
    ]);
    expect(compiled.check({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'orders', labels: { a: 'b' } } })).toEqual([
      { pointer: '', detail: invalid('object', "failed rule: self.metadata.name.startsWith('db-')") },
    ]);
  });
});

describe('what the API server does before its rules run', () => {
  it('fills in defaults, so a rule may read a member the caller left out', () => {
    const schema = specWith({ mode: { type: 'string', enum: ['A', 'B'], default: 'A' } }, [
      { rule: "self.mode == 'A' || self.mode == 'B'", message: 'mode is A or B' },
    ]);
    expect(check(schema, {})).toEqual([]);
    expect(check(schema, { mode: 'C' })).toEqual([{ pointer: '/spec', detail: invalid('object', 'mode is A or B') }]);
  });

  it('runs no rule on a value larger than the schema allows, which the schema check refuses, so a rule costs what the bounds allow', () => {
    const schema = specWith({ items: { type: 'array', maxItems: 3, items: { type: 'string', maxLength: 5 } } }, [
      { rule: 'self.items.all(x, self.items.all(y, x.size() + y.size() < 4))', message: 'short' },
    ]);
    expect(check(schema, { items: ['ab', 'cd'] })).toEqual([{ pointer: '/spec', detail: invalid('object', 'short') }]);
    expect(check(schema, { items: Array.from({ length: 5000 }, () => 'ab') })).toEqual([]);
    expect(check(schema, { items: ['abcdefgh'] })).toEqual([]);
  });
});

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
