/**
 * The cost of CRD rules as Kubernetes 1.33 reckons it (issue 31, item 5): the estimate the API server
 * makes when it takes a CRD, whose budgets lint enforces, and the cost it counts when it runs the
 * rules, whose limits stop a rule here too. Compared with the vectors of test/oracle/celcost
 * (test/vectors/cel-cost.jsonl; `npm run oracle:cel-cost-vectors` writes them with Go).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleCosts } from '../../src/crd/cel-cost-rules.js';
import { celCostProblems } from '../../src/crd/cel-cost-budget.js';
import { estimateCost } from '../../src/crd/cel-cost-estimate.js';
import { declOf } from '../../src/crd/cel-cost-sizes.js';
import { analyseExpression } from '../../src/crd/cel-expression.js';
import { CelRules } from '../../src/crd/cel-rules.js';
import { callLimitExceeded, CostBudget } from '../../src/crd/cel-runtime-budget.js';
import { customResourceCheck } from '../../src/crd/crd-check.js';
import type { JsonObject } from '../../src/util/json.js';
import { runCli } from '../helpers/build.js';
import { readCostVectors } from '../helpers/cel-cost-vectors.js';
import { goPathToPointer } from '../helpers/oracle.js';
import { repoCopy, SHIPPED_REPOS } from '../helpers/repos.js';

type Node = Record<string, unknown>;
const vectors = readCostVectors();
const estimates = vectors.flatMap((v) => (v.kind === 'estimate' ? [v] : []));
const runs = vectors.flatMap((v) => (v.kind === 'runtime' ? [v] : []));

/** The schema node at a Go path (`properties[spec].items`) and whether it is the root or an embedded resource. */
function nodeAt(schema: Node, goPath: string): { node: Node; resource: boolean } {
  let node = schema;
  for (const step of goPathToPointer(goPath).split('/').slice(1)) node = node[step] as Node;
  return { node, resource: node === schema || node['x-kubernetes-embedded-resource'] === true };
}

describe('the estimated cost of CRD rules, against Kubernetes 1.33', () => {
  it("is each rule's and messageExpression's estimate and count of runs, exactly", () => {
    const mismatches: string[] = [];
    let compared = 0;
    let direct = 0;
    for (const { source, schema, go } of estimates) {
      const ours = new Map(ruleCosts(schema, '').map((cost) => [cost.pointer, cost]));
      for (const rule of go.rules) {
        if (rule.error !== undefined) continue;
        const pointer = goPathToPointer(rule.path);
        let cost = ours.get(pointer);
        if (cost === undefined) {
          // Not compiled for a new CRD (semver is for stored rules only in 1.33): its estimate all the same.
          const [at] = rule.path.split(/\.x-kubernetes-validations\[/);
          const { node, resource } = nodeAt(schema, rule.path.includes('.') ? at! : '');
          const index = Number(/\[(\d+)\]$/.exec(rule.path)![1]);
          const text = ((node['x-kubernetes-validations'] as Node[])[index]!.rule as string).trim();
          const analysed = analyseExpression(text, node);
          if (!('parsed' in analysed)) throw new Error(`${source}: ${text} does not parse here`);
          const maxCost = estimateCost(analysed.parsed.expr, declOf(node, resource)!).cost.max;
          direct++;
          if (String(maxCost) !== rule.maxCost) mismatches.push(`${source} ${pointer} ${text}: ours ${maxCost}, Go ${rule.maxCost}`);
          continue;
        }
        compared++;
        const got = { maxCost: String(cost.maxCost), cost: String(cost.cost), messageCost: cost.message && String(cost.message.cost) };
        const want = { maxCost: rule.maxCost, cost: rule.cost, messageCost: rule.messageCost };
        if (JSON.stringify(got) !== JSON.stringify(want))
          mismatches.push(`${source} ${pointer} ${cost.rule}: ours ${JSON.stringify(got)}, Go ${JSON.stringify(want)}`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared + direct).toBeGreaterThan(4000);
  });

  it("gives the CRD validation's cost errors, in the API server's words, at its paths", () => {
    const mismatches: string[] = [];
    for (const { source, schema, go } of estimates) {
      const ours = celCostProblems(schema, '');
      const unmatched = [...ours];
      for (const error of go.errors) {
        const pointer = goPathToPointer(error.field);
        const detail = error.detail.replace(/^Forbidden: /, '');
        const at = unmatched.findIndex((problem) => problem.pointer === pointer && problem.message.includes(detail));
        if (at < 0) mismatches.push(`${source}: Go's ${pointer} ${detail} is not ours`);
        else unmatched.splice(at, 1);
      }
      for (const problem of unmatched) mismatches.push(`${source}: ours ${problem.pointer} ${problem.message} is not Go's`);
    }
    expect(mismatches).toEqual([]);
    expect(estimates.filter((v) => v.go.errors.length > 0).length).toBeGreaterThan(50);
  });

  it("has the shipped CRDs and Gateway API's under every budget, as the API server takes them", () => {
    const real = estimates.filter((v) => v.source.endsWith('.yaml v1') || /\.yaml v\w+$/.test(v.source));
    expect(real.length).toBeGreaterThanOrEqual(20);
    for (const { source, schema, go } of real) expect([source, go.errors, celCostProblems(schema, '')]).toEqual([source, [], []]);
  });
});

describe('lint of a CRD whose rules cost more than the API server allows', () => {
  const crd = (list: Node) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { l: list },
                  'x-kubernetes-validations': [{ rule: 'self.l.all(a, self.l.all(b, self.l.all(c, a == b && b == c)))' }],
                },
              },
            },
          },
        },
      ],
    },
  });

  it('refuses it, naming the rule, its estimate, the budget and the bounds to add; bounded, it passes', async () => {
    const repos = repoCopy(SHIPPED_REPOS);
    const file = path.join(repos, 'extend-resources/crds/widgets.json');
    writeFileSync(file, JSON.stringify(crd({ type: 'array', items: { type: 'string' } }), null, 2));
    const run = await runCli(['lint', '--repos', repos]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(
      'error rule "self.l.all(a, self.l.all(b, self.l.all(c, a == b && b == c)))": estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared): estimated at',
    );
    expect(run.stderr).toContain("over the API server's budget of 10000000 a rule");
    expect(run.stderr).toMatch(/hint: add maxLength to \/spec\/l\/\*, maxItems to \/spec\/l/);

    writeFileSync(file, JSON.stringify(crd({ type: 'array', maxItems: 20, items: { type: 'string', maxLength: 16 } }), null, 2));
    const bounded = await runCli(['lint', '--repos', repos]);
    expect(bounded.stderr).not.toContain('estimated rule cost');
  });
});

describe('running the rules of a custom resource, against the API server', () => {
  it('costs each run what it costs the API server, and leaves its budget', () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const { source, schema, object, go } of runs) {
      const rules = CelRules.compile(schema as JsonObject);
      // Not run here: skipped (two-variable comprehensions), or not compiled for a new CRD (semver is for stored rules in 1.33).
      if (rules.skipped.length > 0 || rules.count < JSON.stringify(schema).split('"rule":').length - 1) continue;
      const budget = new CostBudget();
      rules.check(object, budget);
      compared++;
      if (budget.remaining !== go.remaining) mismatches.push(`${source}: ours leaves ${budget.remaining}, Go ${go.remaining}`);
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(450);
  });

  it('ends the check at a rule past the per-call limit or the budget, in the API server’s words and place', () => {
    const stopped = runs.filter((run) => run.go.remaining < 0);
    expect(stopped.length).toBe(3);
    for (const { schema, object, go } of stopped) {
      const problems = CelRules.compile(schema as JsonObject).check(object);
      const costErrors = go.errors.filter((error) => error.detail.includes('cost'));
      expect(costErrors.length).toBe(1);
      const words = (detail: string) => detail.replace(/^Invalid value: "object": /, ''); // with Go's error body or without
      const at = problems.filter((problem) => problem.pointer === goPathToPointer(costErrors[0]!.field));
      expect(at.map((problem) => words(problem.detail))).toContain(words(costErrors[0]!.detail));
    }
  });

  it('stops the n³ rule on 200 items of an unbounded list at the per-call limit (a CRD lint would refuse)', () => {
    const rule = 'self.l.all(a, self.l.all(b, self.l.all(c, a == b && b == c)))';
    const openAPIV3Schema = {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { l: { type: 'array', items: { type: 'string' } } }, 'x-kubernetes-validations': [{ rule }] },
      },
    };
    const check = customResourceCheck('Widget', {
      crd: 'widgets.example.com',
      version: 'v1',
      definitions: { Widget: { type: 'object' } },
      openAPIV3Schema,
    });
    const manifest = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'default' },
      spec: { l: Array(200).fill('x') },
    };
    expect(check.problems(manifest)).toContainEqual({ pointer: '/spec', detail: expect.stringContaining(callLimitExceeded(rule)) });
  });

  it('stops a replace whose cost is past the limit before it builds its result', () => {
    const rule = "self.s.replace('a', self.s).replace('a', self.s).size() > 0";
    const schema = {
      type: 'object',
      properties: { spec: { type: 'object', properties: { s: { type: 'string' } }, 'x-kubernetes-validations': [{ rule }] } },
    };
    // The first replace makes 2,300² characters; the second would cost 0.2 a character of them, and make 2,300³.
    const problems = CelRules.compile(schema).check({ spec: { s: 'a'.repeat(2300) } });
    expect(problems).toEqual([{ pointer: '/spec', detail: expect.stringContaining(callLimitExceeded(rule)) }]);
  });
});
