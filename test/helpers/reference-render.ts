/**
 * A reference renderer: a test oracle written from the render contract (/work/shared/CONTRACT.md §1–4, §6),
 * not from src/. It reads a collection's files straight from repos/ and does the plainest thing the
 * contract says, so that a test can compare the product's answer with it. It covers only requests that
 * render (no errors, no input schema, no refinements, no manifest check): those are other tests' work.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

type Json = null | boolean | number | string | Json[] | { [member: string]: Json };
type JsonObject = { [member: string]: Json };
export interface ExecRequest {
  facets?: string[];
  values: Record<string, Json>;
  globalvars?: Record<string, string>;
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const readJson = (file: string): JsonObject => JSON.parse(readFileSync(file, 'utf8')) as JsonObject;

// §2: `{{ EXPR }}`, EXPR = REF ( ?? REF )*, REF = VAR.path, VAR = __[A-Z][A-Z0-9_]*__, path segments [A-Za-z0-9_-].
const REFERENCE = String.raw`__[A-Z][A-Z0-9_]*__(?:\.[A-Za-z0-9_-]+)+`;
const EXPRESSION = String.raw`${REFERENCE}(?:\s*\?\?\s*${REFERENCE})*`;
const WHOLE = new RegExp(String.raw`^\{\{\s*(${EXPRESSION})\s*\}\}$`);
const ANYWHERE = new RegExp(String.raw`\{\{\s*(${EXPRESSION})\s*\}\}`, 'g');

/** §1, §4: the sections of `collectionDir` a request includes, masters first, then the others, each group in file-name order. */
export function includedSections(collectionDir: string, facets: string[] = []): JsonObject[] {
  const dir = path.join(collectionDir, 'sections');
  const sections = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => readJson(path.join(dir, file)));
  const carries = (section: JsonObject, facet: string) => (section.facets as string[]).includes(facet);
  const masters = sections.filter((section) => carries(section, 'master'));
  const others = sections.filter((section) => !carries(section, 'master') && facets.some((facet) => carries(section, facet)));
  return [...masters, ...others];
}

/** §1: a section's manifest content: every member but `facets` and the authors' `$` members. */
function body(section: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(section).filter(([member]) => member !== 'facets' && !member.startsWith('$')));
}

/** §4: a whole placeholder and the objects other sections write into the same member: filled, then merged in section order. */
class Merged {
  constructor(readonly parts: Json[]) {}
}
type Template = Json | Merged | { [member: string]: Template };

/** §4: deep merge; objects merge member by member, a later section adds its new members after the earlier ones. */
function merge(into: { [member: string]: Template }, from: JsonObject): { [member: string]: Template } {
  for (const [member, value] of Object.entries(from)) {
    const existing = Object.hasOwn(into, member) ? into[member] : undefined;
    if (existing instanceof Merged) into[member] = new Merged([...existing.parts, structuredClone(value)]);
    else if (isObject(existing) && isObject(value)) merge(existing as { [member: string]: Template }, value);
    else if (existing !== undefined && (isObject(existing) || isObject(value)))
      into[member] = new Merged([existing as Json, structuredClone(value)]);
    else into[member] = structuredClone(value);
  }
  return into;
}

/** §4: filled objects merged; the values may repeat what a section writes, but not contradict it. */
function mergeFilled(parts: Json[]): Json | undefined {
  const deepMerge = (into: JsonObject, from: JsonObject): JsonObject => {
    const merged = { ...into };
    for (const [member, value] of Object.entries(from)) {
      const existing = merged[member];
      if (existing === undefined) merged[member] = value;
      else if (isObject(existing) && isObject(value)) merged[member] = deepMerge(existing, value);
      else if (JSON.stringify(existing) !== JSON.stringify(value)) throw new Error(`values and a section both write ${member}`);
    }
    return merged;
  };
  const objects = parts.filter((part) => part !== undefined);
  if (!objects.every(isObject)) throw new Error('a merged member must be an object');
  return objects.length === 0 ? undefined : objects.reduce(deepMerge);
}

/** §3: the input object a variable reads, or an Error when the contract says the request is refused. */
function inputOf(variable: string, request: ExecRequest): Json | undefined {
  const ids = Object.keys(request.values);
  const globalvars = request.globalvars ?? {};
  if (Object.hasOwn(globalvars, variable)) {
    const id = globalvars[variable]!;
    if (!Object.hasOwn(request.values, id)) throw new Error(`globalvars.${variable} names ${id}, which values lacks`);
    return request.values[id];
  }
  if (ids.length === 1) return request.values[ids[0]!];
  throw new Error(`${variable} has no globalvars entry and values has ${ids.length} entries`);
}

/** §2, §3: one reference's value, reading own members only; a digit segment indexes an array. */
function lookUp(reference: string, request: ExecRequest): Json | undefined {
  const [variable, ...segments] = reference.split('.');
  let node = inputOf(variable!, request);
  for (const segment of segments) {
    if (Array.isArray(node)) node = /^\d+$/.test(segment) ? node[Number(segment)] : undefined;
    else if (isObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}

/** §2: `A ?? B`, the first reference whose value is defined (a JSON null is a value, so it is defined). */
function evaluate(expression: string, request: ExecRequest): Json | undefined {
  for (const reference of expression.split('??').map((part) => part.trim())) {
    const value = lookUp(reference, request);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** §2, §4: a template node with its placeholders filled; undefined means the member (or element) goes. */
function fill(node: Template, request: ExecRequest): Json | undefined {
  if (node instanceof Merged) return mergeFilled(node.parts.map((part) => fill(part, request)!));
  if (typeof node === 'string') {
    const whole = WHOLE.exec(node);
    if (whole) return evaluate(whole[1]!, request);
    let missing = false;
    const text = node.replace(ANYWHERE, (_, expression: string) => {
      const value = evaluate(expression, request);
      if (value === undefined) missing = true;
      else if (typeof value === 'object') throw new Error(`an interpolated placeholder needs a string, number or boolean: ${node}`);
      return String(value);
    });
    return missing ? undefined : text;
  }
  if (Array.isArray(node)) {
    const items = node.map((item) => fill(item, request)).filter((item) => item !== undefined);
    // Contract §4 removes objects left empty; docs/authoring.md, "Sections", says arrays left empty by removals go too.
    return items.length === 0 && node.length > 0 ? undefined : items;
  }
  if (isObject(node)) {
    const members = Object.entries(node).flatMap(([member, value]) => {
      const filled = fill(value, request);
      return filled === undefined ? [] : [[member, filled] as const];
    });
    return members.length === 0 && Object.keys(node).length > 0 ? undefined : Object.fromEntries(members);
  }
  return node as Json;
}

/** §6: `apiVersion`, `kind`, `metadata` first, then the rest in the order the merge gave them. */
function leadingFirst(manifest: JsonObject): JsonObject {
  const leading = ['apiVersion', 'kind', 'metadata'].filter((member) => Object.hasOwn(manifest, member));
  const rest = Object.keys(manifest).filter((member) => !leading.includes(member));
  return Object.fromEntries([...leading, ...rest].map((member) => [member, manifest[member]!]));
}

/** The manifest the contract says `request` renders from the collection in `collectionDir` (a folder of repos/). */
export function referenceRender(collectionDir: string, request: ExecRequest): JsonObject {
  const template = includedSections(collectionDir, request.facets).reduce<{ [member: string]: Template }>(
    (into, section) => merge(into, body(section)),
    {},
  );
  // The manifest itself stays even when every member went (§4).
  return leadingFirst((fill(template, request) as JsonObject | undefined) ?? {});
}
