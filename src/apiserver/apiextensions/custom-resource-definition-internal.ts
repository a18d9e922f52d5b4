/**
 * A v1 CustomResourceDefinition spec as the API server validates it: converted to the internal
 * type (apiextensions/v1 conversion.go). The conversion moves a per-version schema, subresources,
 * printer columns or selectable fields that every version holds alike (Go's semantic equality) to
 * spec.validation, spec.subresources … and names versions[0] spec.version, which changes the
 * paths the errors are reported at. Members keep their v1 JSON; Go pointers read as undefined when unset.
 */
import { isPlainObject, type JsonObject } from '../../util/json.js';
import { list, string, strings } from '../golang/values.js';

export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning: string | undefined;
  /** CustomResourceValidation: `{openAPIV3Schema?}`. */
  schema: JsonObject | undefined;
  subresources: JsonObject | undefined;
  /** undefined for Go's nil slice (printed apart from an empty one). */
  additionalPrinterColumns: JsonObject[] | undefined;
  selectableFields: JsonObject[] | undefined;
}

export interface InternalConversion {
  strategy: string;
  webhookClientConfig: JsonObject | undefined;
  conversionReviewVersions: string[];
}

export interface InternalSpec {
  group: string;
  names: JsonObject;
  scope: string;
  versions: InternalVersion[];
  /** Whether spec.versions was given (a nil slice prints apart from an empty one). */
  versionsSet: boolean;
  version: string;
  validation: JsonObject | undefined;
  subresources: JsonObject | undefined;
  additionalPrinterColumns: JsonObject[];
  selectableFields: JsonObject[];
  conversion: InternalConversion | undefined;
  preserveUnknownFields: boolean;
}

/** A set pointer: decoding leaves null and absent members nil. */
export const pointer = (value: unknown): JsonObject | undefined => (isPlainObject(value) ? (value as JsonObject) : undefined);
const objects = (value: unknown): JsonObject[] | undefined => (Array.isArray(value) ? value.map((item) => pointer(item) ?? {}) : undefined);

export function toInternalSpec(specValue: unknown): InternalSpec {
  const spec = pointer(specValue) ?? {};
  const versions = list(spec.versions).map((item): InternalVersion => {
    const version = pointer(item) ?? {};
    return {
      name: string(version.name),
      served: version.served === true,
      storage: version.storage === true,
      deprecated: version.deprecated === true,
      deprecationWarning: typeof version.deprecationWarning === 'string' ? version.deprecationWarning : undefined,
      schema: pointer(version.schema),
      subresources: pointer(version.subresources),
      additionalPrinterColumns: objects(version.additionalPrinterColumns),
      selectableFields: objects(version.selectableFields),
    };
  });
  const internal: InternalSpec = {
    group: string(spec.group),
    names: pointer(spec.names) ?? {},
    scope: string(spec.scope),
    versions,
    versionsSet: Array.isArray(spec.versions),
    version: versions[0]?.name ?? '',
    validation: undefined,
    subresources: undefined,
    additionalPrinterColumns: [],
    selectableFields: [],
    conversion: toInternalConversion(spec.conversion),
    preserveUnknownFields: spec.preserveUnknownFields === true,
  };
  const first = versions[0];
  if (first === undefined) return internal;
  // Each member moves up when every version's equals versions[0]'s, and is then cleared in every version.
  const alike = <T>(read: (version: InternalVersion) => T, canonical: (value: T) => unknown): boolean =>
    versions.every((version) => sameJson(canonical(read(version)), canonical(read(first))));
  if (alike((v) => v.subresources, canonicalSubresources)) {
    internal.subresources = first.subresources;
    for (const version of versions) version.subresources = undefined;
  }
  if (alike((v) => v.schema, canonicalValidation)) {
    internal.validation = first.schema;
    for (const version of versions) version.schema = undefined;
  }
  if (alike((v) => v.additionalPrinterColumns, canonicalColumns)) {
    internal.additionalPrinterColumns = first.additionalPrinterColumns ?? [];
    for (const version of versions) version.additionalPrinterColumns = undefined;
  }
  if (
    alike(
      (v) => v.selectableFields,
      (fields) => (fields ?? []).map((field) => string(field.jsonPath)),
    )
  ) {
    internal.selectableFields = first.selectableFields ?? [];
    for (const version of versions) version.selectableFields = undefined;
  }
  return internal;
}

/** v1's strategy and webhook become the internal strategy, clientConfig and review versions. */
function toInternalConversion(value: unknown): InternalConversion | undefined {
  const conversion = pointer(value);
  if (conversion === undefined) return undefined;
  const webhook = pointer(conversion.webhook);
  return {
    strategy: string(conversion.strategy),
    webhookClientConfig: pointer(webhook?.clientConfig),
    conversionReviewVersions: strings(webhook?.conversionReviewVersions),
  };
}

/** Key order aside, the same JSON. */
function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

// Canonical forms: what Go's semantic equality compares. A zero string, false, an empty or nil
// slice or map are all alike (they are dropped); a nil pointer differs from a set one (kept as null).

function canonicalSubresources(value: JsonObject | undefined): unknown {
  if (value === undefined) return null;
  const scale = pointer(value.scale);
  return {
    status: pointer(value.status) === undefined ? null : {},
    scale:
      scale === undefined
        ? null
        : {
            spec: string(scale.specReplicasPath),
            status: string(scale.statusReplicasPath),
            selector: typeof scale.labelSelectorPath === 'string' ? scale.labelSelectorPath : null,
          },
  };
}

function canonicalValidation(value: JsonObject | undefined): unknown {
  if (value === undefined) return null;
  const schema = pointer(value.openAPIV3Schema);
  return { schema: schema === undefined ? null : canonicalSchema(schema) };
}

function canonicalColumns(value: JsonObject[] | undefined): unknown {
  return (value ?? []).map((column) => ({
    name: string(column.name),
    type: string(column.type),
    format: string(column.format),
    description: string(column.description),
    priority: typeof column.priority === 'number' ? column.priority : 0,
    jsonPath: string(column.jsonPath),
  }));
}

const words = (text: string): Set<string> => new Set(text.trim().split(/\s+/));
// JSONSchemaProps' members by their Go types: strings, bools and slices (zero when empty), pointers (nil when null).
const VALUE_MEMBERS = words(`id $schema description type format title pattern exclusiveMaximum exclusiveMinimum uniqueItems
  nullable required enum x-kubernetes-embedded-resource x-kubernetes-int-or-string x-kubernetes-list-map-keys`);
const POINTER_MEMBERS = words(`$ref maximum minimum maxLength minLength maxItems minItems multipleOf maxProperties minProperties
  default example x-kubernetes-preserve-unknown-fields x-kubernetes-list-type x-kubernetes-map-type`);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);
const SCHEMA_LISTS = new Set(['allOf', 'oneOf', 'anyOf']);

const isZero = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === false ||
  (Array.isArray(value) && value.length === 0) ||
  (isPlainObject(value) && Object.keys(value).length === 0);

/** A JSONSchemaProps as Go compares it. */
function canonicalSchema(schema: JsonObject): Record<string, unknown> {
  const canonical: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (VALUE_MEMBERS.has(key)) {
      if (!isZero(value)) canonical[key] = value;
    } else if (POINTER_MEMBERS.has(key)) {
      if (value !== null) canonical[key] = value;
    } else if (SCHEMA_MAPS.has(key)) {
      if (!isZero(value))
        canonical[key] = Object.fromEntries(
          Object.entries(pointer(value) ?? {}).map(([name, item]) => [name, canonicalSchema(pointer(item) ?? {})]),
        );
    } else if (SCHEMA_LISTS.has(key)) {
      if (!isZero(value)) canonical[key] = list(value).map((item) => canonicalSchema(pointer(item) ?? {}));
    } else if (key === 'not') {
      if (value !== null) canonical[key] = canonicalSchema(pointer(value) ?? {});
    } else if (key === 'items') {
      if (value !== null)
        canonical[key] = Array.isArray(value)
          ? value.length === 0
            ? {}
            : { schemas: value.map((item) => canonicalSchema(pointer(item) ?? {})) }
          : { schema: canonicalSchema(pointer(value) ?? {}) };
    } else if (key === 'additionalProperties' || key === 'additionalItems') {
      if (value !== null)
        canonical[key] = typeof value === 'boolean' ? { allows: value } : { allows: true, schema: canonicalSchema(pointer(value) ?? {}) };
    } else if (key === 'dependencies') {
      if (!isZero(value))
        canonical[key] = Object.fromEntries(
          Object.entries(pointer(value) ?? {}).map(([name, item]) => [
            name,
            Array.isArray(item) ? (item.length === 0 ? {} : { property: item }) : { schema: canonicalSchema(pointer(item) ?? {}) },
          ]),
        );
    } else if (key === 'externalDocs') {
      if (value !== null) canonical[key] = Object.fromEntries(Object.entries(pointer(value) ?? {}).filter(([, item]) => !isZero(item)));
    } else if (key === 'x-kubernetes-validations') {
      if (!isZero(value))
        canonical[key] = list(value).map((rule) =>
          Object.fromEntries(
            Object.entries(pointer(rule) ?? {}).filter(([name, item]) =>
              name === 'reason' || name === 'optionalOldSelf' ? item !== null : !isZero(item),
            ),
          ),
        );
    }
  }
  return canonical;
}
