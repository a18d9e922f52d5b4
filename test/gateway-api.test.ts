/**
 * Gateway API (issue 31), added as a template author would: its ten standard CRDs in a repository
 * of their own, one collection per kind (test/helpers/gateway-api.ts), built and served. Every one
 * of its valid examples renders exactly as written; every invalid one is a 422 naming each member
 * the API server names, with its rule. What the API server says is the oracle's committed verdict
 * (test/vectors/gateway-api-examples.jsonl, written by `npm run oracle:vectors`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oraclePointer } from './apiserver/compare.js';
import { readExampleVerdicts } from './apiserver/gateway-api.js';
import { buildInto } from './helpers/build.js';
import { type GatewayExample, gatewayExamples, gatewayExecPath, gatewayKinds, gatewayRepos, requestFor } from './helpers/gateway-api.js';
import type { OracleFieldError } from './helpers/oracle.js';
import { problemOf, startTestServer, type TestServer } from './helpers/server.js';

const kinds = gatewayKinds();
const valid = gatewayExamples('examples/standard');
const invalid = gatewayExamples('hack/invalid-examples/standard');
const verdicts = new Map(readExampleVerdicts().map((v) => [`${v.file}#${v.index}`, v.oracle]));
const nameOf = (example: GatewayExample) => `${example.file}#${example.index}`;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ dist: await buildInto(gatewayRepos()) });
}, 120_000);
afterAll(() => server?.close());

/** POSTs the example to its kind's collection, as `facetform render` or a pipeline would. */
async function exec(example: GatewayExample) {
  const kind = kinds.find((k) => k.kind === example.manifest.kind)!;
  const { $description: _, ...request } = requestFor(kind, example);
  const id = Object.keys(request.values)[0]!;
  return { id, response: await server.request(gatewayExecPath(kind), { method: 'POST', json: request }) };
}

/** What our detail must hold to name the oracle's rule: the CEL message, the pattern, the bound, the supported values. */
function ruleWords(error: OracleFieldError): string[] {
  const body = error.message;
  const pattern = /should match '(.*)'$/.exec(body);
  if (pattern !== null) return [pattern[1]!];
  const bound = /should be (less|greater) than or equal to (-?\d+)$/.exec(body);
  if (bound !== null) return [bound[2]!];
  if (error.type === 'FieldValueNotSupported') return [...body.matchAll(/"([^"]*)"(?=,|$)/g)].map((m) => m[1]!);
  if (error.type === 'FieldValueRequired') return ['required'];
  if (error.type === 'FieldValueDuplicate') return ['Duplicate value'];
  if (error.type === 'FieldValueTypeInvalid') return [/must be of type (\w+)/.exec(body)?.[1] ?? ''];
  // A CEL rule: its message, word for word (the API server puts `Invalid value: "object": ` before it).
  return [body.replace(/^Invalid value: "[a-z]*": /, '')];
}

describe("Gateway API's examples, as an author's repository", () => {
  it('are all judged by the oracle (npm run oracle:vectors regenerates the verdicts)', () => {
    const missing = [...valid, ...invalid].map(nameOf).filter((name) => !verdicts.has(name));
    expect(missing).toEqual([]);
    expect(valid.map((e) => `${nameOf(e)} ${verdicts.get(nameOf(e))?.verdict}`)).toEqual(valid.map((e) => `${nameOf(e)} accept`));
    expect(invalid.map((e) => `${nameOf(e)} ${verdicts.get(nameOf(e))?.verdict}`)).toEqual(invalid.map((e) => `${nameOf(e)} refuse`));
  });

  it.each(valid.map((example) => [nameOf(example), example] as const))('%s renders exactly', async (_, example) => {
    const { response } = await exec(example);
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(JSON.stringify(example.manifest)));
  });

  it.each(invalid.map((example) => [nameOf(example), example] as const))(
    '%s is refused, naming every member and rule',
    async (_, example) => {
      const { id, response } = await exec(example);
      const problem = await problemOf(response);
      expect(problem.status).toBe(422);
      const ours = problem.errors ?? [];
      const oracle = verdicts.get(nameOf(example))!;
      // `<nil>` errors only summarise (oneOf/anyOf, "some validation rules were not checked").
      for (const error of oracle.errors.filter((e) => e.field !== '<nil>')) {
        const pointer = `/values/${id}${oraclePointer(error.field, example.manifest.kind, example.manifest)}`;
        const details = ours.filter((o) => o.pointer === pointer).map((o) => o.detail);
        expect(details, `${error.field}: ${error.message}`).not.toEqual([]);
        for (const word of ruleWords(error)) expect(details.join('\n'), `${error.field}: ${error.message}`).toContain(word);
      }
    },
  );
});

describe('a Gateway address, as the API server judges it', () => {
  const gateway = valid.find(
    (e) => e.manifest.kind === 'Gateway' && Array.isArray((e.manifest.spec as { addresses?: unknown })?.addresses),
  )!;
  const withAddress = (address: Record<string, unknown>): GatewayExample => ({
    ...gateway,
    manifest: { ...gateway.manifest, spec: { ...(gateway.manifest.spec as object), addresses: [address] } },
  });

  // `type` defaults to IPAddress before the schema's oneOf is judged; the IPAddress branch's value is ipv4 or ipv6 (kube-openapi's formats).
  it.each(['1.1.1.1', '::1', '10.0.0.01'])('takes %s without a type: the default makes it an IPAddress', async (value) => {
    const { response } = await exec(withAddress({ value }));
    expect(response.status, await response.clone().text()).toBe(200);
  });

  it.each(['foo.com', '256.255.255.255', '1.1.1'])('refuses %s as an IPAddress, at the value', async (value) => {
    for (const address of [{ value }, { type: 'IPAddress', value }]) {
      const { id, response } = await exec(withAddress(address));
      const problem = await problemOf(response);
      expect(problem.status).toBe(422);
      expect(problem.errors!.map((e) => e.pointer)).toContain(`/values/${id}/spec/addresses/0/value`);
    }
  });

  it('takes a hostname as a Hostname address', async () => {
    const { response } = await exec(withAddress({ type: 'Hostname', value: 'foo.com' }));
    expect(response.status).toBe(200);
  });
});
