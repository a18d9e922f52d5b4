/**
 * CRD rules calling Kubernetes' CEL libraries, compiled and run as other rules are (the functions
 * themselves are compared with Kubernetes' in cel-kubernetes-libraries.test.ts): what the API
 * server's CRD environment of 1.33 has runs, what it refuses is a CRD problem, and only the macros
 * @bufbuild/cel does not expand are skipped (lint's warning, src/lint/rules/crds.ts).
 */
import { describe, expect, it } from 'vitest';
import { CelRules } from '../../src/crd/cel-rules.js';

/** A root schema whose spec.hostnames (a list of strings, bounded as the API server's cost estimate wants) has the given rules. */
const hostnamesWith = (rules: unknown[]) => ({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        hostnames: { type: 'array', maxItems: 16, items: { type: 'string', maxLength: 253 }, 'x-kubernetes-validations': rules },
      },
    },
  },
});
const manifest = (hostnames: string[]) => ({ apiVersion: 'x/v1', kind: 'X', metadata: { name: 'n' }, spec: { hostnames } });

describe("rules calling Kubernetes' CEL libraries", () => {
  it("run Gateway API TLSRoute's hostnames rule (isIP), which lint no longer warns of", () => {
    const rules = CelRules.compile(hostnamesWith([{ message: 'Hostnames cannot contain an IP', rule: 'self.all(h, !isIP(h))' }]) as never);
    expect(rules.skipped).toEqual([]);
    expect(rules.problems).toEqual([]);
    expect(rules.count).toBe(1);
    expect(rules.check(manifest(['example.com', 'a.example.com']))).toEqual([]);
    expect(rules.check(manifest(['example.com', '2001:db8::1']))).toEqual([
      { pointer: '/spec/hostnames', detail: 'Invalid value: "array": Hostnames cannot contain an IP' },
    ]);
  });

  it('run the other libraries: cidr, url, quantity, format (with its optional), regex, lists, sets', () => {
    const rules = CelRules.compile(
      hostnamesWith([
        { rule: "self.all(h, !isCIDR(h) || cidr(h).containsCIDR('10.0.0.0/8') == false)", message: 'cidr' },
        { rule: "self.all(h, !isURL(h) || url(h).getScheme() == 'https')", message: 'url' },
        { rule: "self.all(h, !isQuantity(h) || quantity(h).isLessThan(quantity('1Gi')))", message: 'quantity' },
        { rule: "self.all(h, h.contains('/') || h.contains(':') || !format.dns1123Subdomain().validate(h).hasValue())", message: 'format' },
        { rule: "self.all(h, h.find('[0-9]+') != '666')", message: 'regex' },
        { rule: 'self.size() < 2 || self.isSorted()', message: 'lists' },
        { rule: "!sets.intersects(self, ['forbidden'])", message: 'sets' },
      ]) as never,
    );
    expect([rules.skipped, rules.problems, rules.count]).toEqual([[], [], 7]);
    expect(rules.check(manifest(['a.example.com', 'b.example.com']))).toEqual([]);
    const failed = rules.check(manifest(['forbidden', 'http://x', '10.0.0.0/8', '2Gi', 'Not_A_Name', 'x666']));
    expect(failed.map((problem) => problem.detail)).toEqual(
      ['cidr', 'url', 'quantity', 'format', 'regex', 'lists', 'sets'].map((message) => `Invalid value: "array": ${message}`),
    );
  });

  it('report an error of a library call as the API server does, with the rule', () => {
    const rules = CelRules.compile(hostnamesWith([{ rule: 'self.all(h, ip(h).family() == 4)', message: 'IPv4 only' }]) as never);
    expect(rules.check(manifest(['10.0.0.1', 'fe80::1%eth0']))).toEqual([
      {
        pointer: '/spec/hostnames',
        detail: 'Invalid value: "array": IP address "fe80::1%eth0" with zone value is not allowed evaluating rule: IPv4 only',
      },
    ]);
  });

  it("refuse what Kubernetes 1.33's CRD environment refuses: semver (stored rules only), math, a pattern Go does not compile", () => {
    const rules = CelRules.compile(
      hostnamesWith([
        { rule: 'self.all(h, isSemver(h))' },
        { rule: 'math.greatest(1, 2) == 2' },
        { rule: "self.all(h, h.find('(') == '')" },
      ]) as never,
    );
    expect(rules.problems.map((problem) => problem.message)).toEqual([
      'rule "self.all(h, isSemver(h))" does not compile: undeclared reference to \'isSemver\'',
      'rule "math.greatest(1, 2) == 2" does not compile: undeclared reference to \'math.greatest\'',
      "rule \"self.all(h, h.find('(') == '')\" does not compile: error parsing regexp: missing closing ): `(`",
    ]);
  });

  it('skip, and list, the two-variable comprehensions and optional macros @bufbuild/cel does not expand', () => {
    const rules = CelRules.compile(
      hostnamesWith([{ rule: "self.all(i, h, i == 0 || h != '')" }, { rule: 'self.transformList(i, h, h).size() > 0' }]) as never,
    );
    expect(rules.problems).toEqual([]);
    expect(rules.skipped.map((skipped) => skipped.reason)).toEqual([
      "uses two-variable all() from Kubernetes' CEL environment, macros @bufbuild/cel does not expand",
      "uses transformList() from Kubernetes' CEL environment, macros @bufbuild/cel does not expand",
    ]);
  });
});
