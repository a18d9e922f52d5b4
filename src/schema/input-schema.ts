/**
 * Generated input-value schemas (CONTRACT §5): the JSON Schema of `values[<id>]` for one collection.
 * Its members follow the placeholder paths; each leaf takes the Kubernetes type of the member the
 * placeholder lands on, `$values` refinements win, and an interpolated placeholder is a scalar.
 * The same analysis decides which placeholders are required (CONTRACT §4).
 */
import type { PlaceholderSite } from '../template/body.js';
import type { Reference } from '../template/placeholder.js';
import { isPlainObject, toPointer } from '../util/json.js';
import { memberType, referencedDefinitions } from '../kubernetes/kind-definitions.js';
import type { KindSchema, Schema } from '../kubernetes/kind-schema.js';

export const SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

/** A `$values` entry of a section, keyed by the reference path without the variable. */
export interface Refinement {
  schema?: Schema;
  required?: boolean;
}

export interface SchemaSection {
  name: string;
  master: boolean;
  sites: PlaceholderSite[];
  refinements: Record<string, Refinement>;
}

export interface GeneratedInput {
  schema: Schema;
  /** Per section: JSON Pointers (into the manifest) of its required placeholders. */
  required: Record<string, string[]>;
}

const SCALAR: Schema = { type: ['string', 'number', 'boolean'] };
const ANY_JSON: Schema = {};

interface InputNode {
  leaves: Schema[];
  children: Map<string, InputNode>;
  required: Set<string>;
}

const newNode = (): InputNode => ({ leaves: [], children: new Map(), required: new Set() });

export function generateInputSchema(
  collection: { name: string; kind: string },
  sections: SchemaSection[],
  kind: KindSchema | undefined,
): GeneratedInput {
  const root = newNode();
  const required: Record<string, string[]> = {};

  const place = (path: string[], leaf: Schema, requiredInSchema: boolean): void => {
    let node = root;
    for (const segment of path) {
      if (requiredInSchema) node.required.add(segment);
      let child = node.children.get(segment);
      if (child === undefined) node.children.set(segment, (child = newNode()));
      node = child;
    }
    node.leaves.push(leaf);
  };

  for (const section of sections) {
    required[section.name] = [];
    for (const site of section.sites) {
      const landing = kind === undefined ? undefined : memberType(kind, site.at);
      const refined = (reference: Reference) => section.refinements[reference.path.join('.')];
      const feedsMetadata = site.at[0] === 'metadata' && site.at.length <= 2 && (site.at.length === 1 || site.at[1] === 'name');
      const isRequired =
        (landing?.required ?? false) ||
        feedsMetadata ||
        site.expressions.some((expression) => expression.references.some((reference) => refined(reference)?.required === true));
      if (isRequired) required[section.name]!.push(toPointer(site.at));

      for (const expression of site.expressions) {
        const single = expression.references.length === 1;
        for (const reference of expression.references) {
          const leaf = readingSchema(section, site, reference, kind);
          // Only master sections are always included, so only their placeholders are required in the
          // schema itself; the others are checked when their section is rendered.
          const requiredInSchema = section.master && isRequired && single;
          place(reference.path, leaf, requiredInSchema);
          if (feedsMetadata && site.at.length === 1 && site.whole && single && kind !== undefined) {
            place([...reference.path, 'name'], memberType(kind, ['metadata', 'name'])?.schema ?? { type: 'string' }, true);
          }
        }
      }
    }
  }

  const body = emit(root);
  const definitions = kind?.definitions ?? {};
  const used = [...referencedDefinitions(body, definitions)].sort();
  const schema: Schema = {
    $schema: SCHEMA_DRAFT,
    title: `${pascalCase(collection.name)}Values`,
    description: `Input values of one ${collection.kind} (values[<id>]) for the ${collection.name} collection.`,
    ...body,
  };
  if (used.length > 0) schema.definitions = Object.fromEntries(used.map((name) => [name, definitions[name]!]));
  return { schema, required };
}

/**
 * The schema of the input a placeholder reference reads: the Kubernetes type of the member where it
 * lands when it is the whole string, a scalar when interpolated, any JSON where no type is known;
 * the section's `$values` refinement over it.
 */
export function readingSchema(section: SchemaSection, site: PlaceholderSite, reference: Reference, kind: KindSchema | undefined): Schema {
  const landing = kind === undefined ? undefined : memberType(kind, site.at);
  const generated = site.whole ? (landing?.schema ?? ANY_JSON) : SCALAR;
  const refinement = section.refinements[reference.path.join('.')]?.schema;
  return refinement === undefined ? generated : { ...generated, ...refinement };
}

function emit(node: InputNode): Schema {
  const parts: Schema[] = [];
  const seen = new Set<string>();
  for (const leaf of node.leaves) {
    const key = JSON.stringify(leaf);
    if (!seen.has(key)) {
      seen.add(key);
      parts.push(leaf);
    }
  }
  if (node.children.size > 0) {
    const keys = [...node.children.keys()];
    if (keys.every((key) => /^[0-9]+$/.test(key))) {
      // Placeholders that index an array: every indexed element takes every indexed shape.
      const items = keys.map((key) => emit(node.children.get(key)!));
      parts.push({ type: 'array', items: items.length === 1 ? items[0]! : { allOf: items } });
    } else {
      const object: Schema = {
        type: 'object',
        properties: Object.fromEntries(keys.map((key) => [key, emit(node.children.get(key)!)])),
      };
      if (node.required.size > 0) object.required = [...node.required];
      parts.push(object);
    }
  }
  if (parts.length === 0) return {};
  if (parts.length === 1) return parts[0]!;
  // A description shared by the parts reads better on the whole.
  const description = parts.find((part) => typeof part.description === 'string')?.description;
  return description === undefined ? { allOf: parts } : { description, allOf: parts };
}

export function pascalCase(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

export function isRefinementMap(value: unknown): value is Record<string, Refinement> {
  return isPlainObject(value) && Object.values(value).every((entry) => isPlainObject(entry));
}
