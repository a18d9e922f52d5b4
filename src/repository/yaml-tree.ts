/**
 * A YAML file read as a JSON value with the syntax tree jsonc-parser would give its JSON twin, so
 * that a SourceFile of YAML (CRDs are mostly kept as YAML) points at lines and columns like one of
 * JSON. One document per file: a file of several documents is a problem, not a silent first pick.
 */
import type { Node } from 'jsonc-parser';
import { isAlias, isMap, isScalar, isSeq, parseAllDocuments, type Document, type Node as YamlNode } from 'yaml';
import type { JsonValue } from '../util/json.js';

export interface YamlTree {
  /** The document as JSON, or undefined when it has errors or is not JSON. */
  value: JsonValue | undefined;
  tree: Node | undefined;
  errors: Array<{ offset: number; message: string }>;
}

type MutableNode = { -readonly [K in keyof Node]: Node[K] } & { children?: MutableNode[]; parent?: MutableNode };

export function parseYamlTree(text: string): YamlTree {
  // As kubectl reads it (go-yaml v2): YAML 1.1, so `n:` and `on:` are booleans, and `<<` merges.
  const documents = parseAllDocuments(text, { prettyErrors: false, version: '1.1', merge: true });
  // A `---` with nothing after it ends a file as kubectl allows; it is not a second document.
  const empty = (document: Document) => document.contents === null || (isScalar(document.contents) && document.contents.value === null);
  const list = (Array.isArray(documents) ? documents : []).filter(
    (document, index) => index === 0 || !empty(document) || document.errors.length > 0,
  );
  const errors = list.flatMap((document) =>
    document.errors.map((error) => ({ offset: error.pos[0], message: `invalid YAML: ${error.message.split('\n')[0]}` })),
  );
  if (list.length > 1) errors.push({ offset: list[1]!.range[0], message: 'invalid YAML: one document per file (this file has several)' });
  const document = list[0];
  if (errors.length > 0 || document === undefined || document.contents === null) {
    if (document === undefined || document.contents === null) errors.push({ offset: 0, message: 'invalid YAML: the file is empty' });
    return { value: undefined, tree: undefined, errors };
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: 100 }) as unknown;
  } catch (error) {
    // An alias bomb, say: a problem of this file, not a crash of the build.
    return { value: undefined, tree: undefined, errors: [{ offset: 0, message: `invalid YAML: ${(error as Error).message}` }] };
  }
  const notJson = firstNonJson(value);
  if (notJson !== undefined)
    return { value: undefined, tree: undefined, errors: [{ offset: 0, message: `invalid YAML for JSON: ${notJson}` }] };
  return { value: value as JsonValue, tree: toNode(document, document.contents, undefined), errors };
}

/** The jsonc-parser node of a YAML node, with offsets into the YAML text. */
function toNode(document: Document, node: YamlNode, parent: MutableNode | undefined): MutableNode {
  const target = isAlias(node) ? (node.resolve(document) ?? node) : node;
  const [start, end] = target.range ?? [0, 0];
  const out: MutableNode = { type: 'null', offset: start, length: end - start, parent };
  if (isMap(target)) {
    out.type = 'object';
    out.children = target.items.map((pair) => {
      const keyNode = pair.key as YamlNode | null;
      const [keyStart, keyEnd] = keyNode?.range ?? [start, start];
      const end = (pair.value as YamlNode | null)?.range?.[1] ?? keyEnd;
      const property: MutableNode = { type: 'property', offset: keyStart, length: end - keyStart, parent: out };
      const key: MutableNode = {
        type: 'string',
        value: String(isScalar(keyNode) ? keyNode.value : keyNode),
        offset: keyStart,
        length: keyEnd - keyStart,
        parent: property,
      };
      property.children = [key];
      if (pair.value !== null && pair.value !== undefined) property.children.push(toNode(document, pair.value as YamlNode, property));
      return property;
    });
  } else if (isSeq(target)) {
    out.type = 'array';
    out.children = target.items.map((item) => toNode(document, item as YamlNode, out));
  } else if (isScalar(target)) {
    const value = target.value;
    out.type = value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
    out.value = value;
  }
  return out;
}

/** Why a parsed YAML value is not JSON (a date, a non-finite number, …), or undefined. */
function firstNonJson(value: unknown): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : `${value} is not a JSON number`;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstNonJson(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const item of Object.values(value)) {
      const found = firstNonJson(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return `a ${Object.prototype.toString.call(value).slice(8, -1)} is not JSON`;
}
