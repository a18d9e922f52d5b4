/** x-kubernetes-validations rules compiled once and run on manifests as the API server runs them on a create (on an update: cel-transition-rules.test.ts). */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CelRules } from '../../src/crd/cel-rules.js';
import { readCrd } from '../../src/crd/crd.js';
import { SourceFile } from '../../src/repository/source-file.js';
import { check, forbidden, invalid, specWith } from '../helpers/cel-rules.js';

const FIXTURE = path.join(import.meta.dirname, '../fixtures/crds/databases.yaml');
const version = readCrd(new SourceFile(FIXTURE).value).crd!.versions[1]!;
const rules = CelRules.compile(version.schema, version.schemaPointer);

const database = (spec: Record<string, unknown>, name = 'orders') => ({
  apiVersion: 'platform.example.com/v1',
  kind: 'Database',
  metadata: { name },
  spec: { engine: 'postgres', storage: { size: '10Gi' }, ...spec },
});

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
