/**
 * One input read at two types that no value can share (a list where one section lands it, a string
 * where another does) makes the generated schema refuse every value: every example that gives it
 * fails, far from the cause. The section that reads it otherwise is blamed, at its placeholder, and
 * the sections that agree are named.
 */
import type { CollectionModel, SectionModel } from '../../collection/model.js';
import { resolveRef } from '../../kubernetes/kind-definitions.js';
import type { KindSchema, Schema } from '../../kubernetes/kind-schema.js';
import { readingSchema } from '../../schema/input-schema.js';
import type { PlaceholderSite } from '../../template/body.js';
import type { LintReport } from '../report.js';

const JSON_TYPES = ['object', 'array', 'string', 'number', 'boolean', 'null'] as const;
type JsonTypes = ReadonlySet<string>;
const ANY: JsonTypes = new Set(JSON_TYPES);

interface Reading {
  section: SectionModel;
  site: PlaceholderSite;
  types: JsonTypes;
}

/** The JSON types a schema lets through (integer counts as number); every type where it does not say. */
export function jsonTypesOf(schema: Schema, definitions: Record<string, Schema>, depth = 0): JsonTypes {
  const resolved = resolveRef(schema, definitions);
  if (depth > 16) return ANY;
  if (resolved['x-kubernetes-int-or-string'] === true) return new Set(['number', 'string']);
  let types: JsonTypes = ANY;
  if (resolved.type !== undefined) {
    types = new Set(([] as unknown[]).concat(resolved.type).map((type) => (type === 'integer' ? 'number' : String(type))));
    if (resolved.nullable === true) types = new Set([...types, 'null']);
  }
  for (const part of (resolved.allOf as Schema[] | undefined) ?? []) types = intersect(types, jsonTypesOf(part, definitions, depth + 1));
  const union = [resolved.anyOf, resolved.oneOf].find(Array.isArray) as Schema[] | undefined;
  if (union !== undefined) types = intersect(types, new Set(union.flatMap((part) => [...jsonTypesOf(part, definitions, depth + 1)])));
  return types;
}

const intersect = (a: JsonTypes, b: JsonTypes): JsonTypes => new Set([...a].filter((type) => b.has(type)));
const shown = (types: JsonTypes) => (types.size === ANY.size ? 'any JSON' : [...types].join(' or '));

export function lintInputTypes(collection: CollectionModel, kind: KindSchema | undefined, report: LintReport): void {
  const definitions = kind?.definitions ?? {};
  const readings = new Map<string, Reading[]>();
  for (const section of collection.ordered) {
    for (const site of section.sites) {
      for (const expression of site.expressions) {
        for (const reference of expression.references) {
          const types = jsonTypesOf(readingSchema(section, site, reference, kind), definitions);
          const key = reference.path.join('.');
          readings.set(key, [...(readings.get(key) ?? []), { section, site, types }]);
        }
      }
    }
  }
  const variable = String(collection.declaration?.variable ?? '');
  for (const [path, list] of readings) {
    if (list.reduce((common, reading) => intersect(common, reading.types), ANY).size > 0) continue;
    const agreed = mostAgreed(list);
    for (const odd of list.filter((reading) => intersect(reading.types, agreed.types).size === 0)) {
      const others = list.filter((reading) => reading.section !== odd.section && intersect(reading.types, agreed.types).size > 0);
      const named = [...new Set(others.map(({ section, site }) => `${section.file.path}:${section.file.locate(site.at).line}`))];
      report.error(
        odd.section.file,
        odd.site.at,
        `reads ${variable}.${path} as ${shown(odd.types)}, but ${named.join(', ')} ${named.length === 1 ? 'reads' : 'read'} it as ` +
          `${shown(agreed.types)}: no value is both, so every request that gives it is refused`,
        `read another input member here (a new name), or land it where Kubernetes wants ${shown(agreed.types)}`,
      );
    }
  }
}

/** The types most readings share: the sections that agree outnumber the one that came in otherwise. */
function mostAgreed(list: Reading[]): Reading {
  const agreeing = (reading: Reading) => list.filter((other) => intersect(other.types, reading.types).size > 0).length;
  return list.reduce((best, reading) => (agreeing(reading) > agreeing(best) ? reading : best));
}
