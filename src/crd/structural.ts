/**
 * The rules the API server applies to a CRD version's openAPIV3Schema before it takes the CRD: a
 * *structural* schema (every node typed, logic junctors only restate what is typed outside them,
 * metadata restricted to name and generateName), the OpenAPI keywords CRDs do not support, and the
 * Kubernetes extensions' own rules. Kubernetes' messages, with a pointer into the CRD file each.
 */
import { RE2JS } from '@bufbuild/re2';
import { isPlainObject, toPointer } from '../util/json.js';
import type { CrdProblem } from './crd.js';
import { fieldPathExists, parseFieldPath } from './field-path.js';

type Node = Record<string, unknown>;
type Level = 'root' | 'item' | 'field';

const TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);
const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;
const UNSUPPORTED: Record<string, string> = {
  $ref: '$ref is not supported',
  id: 'id is not supported',
  additionalItems: 'additionalItems is not supported',
  patternProperties: 'patternProperties is not supported',
  definitions: 'definitions is not supported',
  dependencies: 'dependencies is not supported',
};
const REASONS = ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'];
const INT_OR_STRING_ANY_OF = JSON.stringify([{ type: 'integer' }, { type: 'string' }]);
const FIX_STRUCTURAL =
  'make the schema structural: https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema';

/** Every problem of one version's openAPIV3Schema; `pointer` is where the schema sits in the CRD file. */
export function structuralProblems(schema: Node, pointer: string): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const add = (path: readonly (string | number)[], message: string, fix = FIX_STRUCTURAL) =>
    problems.push({ pointer: pointer + toPointer(path), message: `${toPointer(path) || '/'}: ${message}`, fix });
  checkNode(schema, [], 'root', { insideMeta: false, defaultsForbidden: undefined }, add);
  return problems;
}

type Add = (path: readonly (string | number)[], message: string, fix?: string) => void;
interface Context {
  insideMeta: boolean;
  /** Why a default may not be written here, or undefined where it may. */
  defaultsForbidden: string | undefined;
}

function checkNode(node: Node, path: Array<string | number>, level: Level, context: Context, add: Add): void {
  const type = typeof node.type === 'string' ? node.type : undefined;
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserve = node['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = node['x-kubernetes-embedded-resource'] === true;
  const properties = isPlainObject(node.properties) ? node.properties : undefined;

  checkKeywords(node, path, add);
  if (node.default !== undefined && context.defaultsForbidden !== undefined)
    add([...path, 'default'], `must not be set ${context.defaultsForbidden}`, 'remove the default');
  if (node.type !== undefined && (type === undefined || !TYPES.has(type))) {
    add(
      [...path, 'type'],
      type === 'null'
        ? 'type cannot be set to null, use nullable as an alternative'
        : `type ${JSON.stringify(node.type)} is not supported: use one of ${[...TYPES].join(', ')}`,
      'write one type; for "may be null" add nullable: true',
    );
  }
  if (node['x-kubernetes-preserve-unknown-fields'] === false)
    add(
      [...path, 'x-kubernetes-preserve-unknown-fields'],
      'must be true or undefined',
      'remove it: fields not in the schema are pruned by default',
    );
  if (intOrString && preserve)
    add(
      [...path, 'x-kubernetes-preserve-unknown-fields'],
      'must be false if x-kubernetes-int-or-string is true',
      'keep only x-kubernetes-int-or-string',
    );
  if (intOrString && embedded)
    add([...path, 'x-kubernetes-embedded-resource'], 'must be false if x-kubernetes-int-or-string is true', 'keep only one of the two');
  if (context.insideMeta && embedded)
    add([...path, 'x-kubernetes-embedded-resource'], 'must not be used inside of resource meta', 'remove it');

  if (type === 'array' && node.items === undefined)
    add([...path, 'items'], 'must be specified', 'say what the elements are: items: { type: … }');
  if (embedded && type !== 'object')
    add([...path, 'type'], 'must be object if x-kubernetes-embedded-resource is true', 'write type: object');
  else if (type === undefined && node.type === undefined && !intOrString && !preserve) {
    const where = { root: 'at the root', item: 'for specified array items', field: 'for specified object fields' }[level];
    add(
      [...path, 'type'],
      `must not be empty ${where}`,
      'give the node a type (object, array, string, integer, number, boolean), or mark it x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields',
    );
  }
  if (level === 'root' && type !== undefined && type !== 'object')
    add([...path, 'type'], 'must be object at the root', 'write type: object');

  if (node.additionalProperties !== undefined) {
    if (node.additionalProperties === false)
      add(
        [...path, 'additionalProperties'],
        'additionalProperties cannot be set to false',
        'remove it: Kubernetes prunes fields the schema does not name',
      );
    else if (properties !== undefined && Object.keys(properties).length > 0)
      add(
        [...path, 'additionalProperties'],
        'additionalProperties and properties are mutual exclusive',
        'use properties for a struct, additionalProperties for a map, not both',
      );
    if (level === 'root') add([...path, 'additionalProperties'], 'must not be used at the root', 'move the map into a member, e.g. spec');
    if (embedded) add([...path, 'additionalProperties'], 'must not be used if x-kubernetes-embedded-resource is set', 'remove it');
    if (isPlainObject(node.additionalProperties)) {
      const inMeta = context.insideMeta ? 'inside additionalProperties applying to object metadata' : context.defaultsForbidden;
      checkNode(
        node.additionalProperties,
        [...path, 'additionalProperties'],
        'field',
        { insideMeta: context.insideMeta, defaultsForbidden: inMeta },
        add,
      );
    }
  }
  if (embedded && !preserve && (properties === undefined || Object.keys(properties).length === 0)) {
    add(
      [...path, 'properties'],
      'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      'add the properties of the embedded resource, or x-kubernetes-preserve-unknown-fields: true',
    );
  }

  const checkMeta = level === 'root' || embedded;
  for (const [name, member] of Object.entries(properties ?? {})) {
    if (!isPlainObject(member)) continue;
    const meta = checkMeta && ['apiVersion', 'kind', 'metadata'].includes(name);
    const child: Context = meta
      ? { insideMeta: true, defaultsForbidden: level === 'root' ? `in top-level ${name}` : context.defaultsForbidden }
      : context;
    checkNode(member, [...path, 'properties', name], 'field', child, add);
    if (checkMeta && (name === 'apiVersion' || name === 'kind') && member.type !== 'string')
      add([...path, 'properties', name, 'type'], 'must be string', 'write type: string');
  }
  if (checkMeta && properties !== undefined && isPlainObject(properties.metadata))
    checkMetadata(properties.metadata, [...path, 'properties', 'metadata'], level === 'root', add);

  if (isPlainObject(node.items)) checkNode(node.items, [...path, 'items'], 'item', context, add);
  checkListAndMapTypes(node, path, add);
  checkValidations(node, path, add);

  // The value validations under allOf/anyOf/oneOf/not: restating what is typed outside, nothing more.
  const skipAnyOf = JSON.stringify(node.anyOf) === INT_OR_STRING_ANY_OF;
  const skipFirstAllOfAnyOf =
    Array.isArray(node.allOf) && isPlainObject(node.allOf[0]) && JSON.stringify(node.allOf[0].anyOf) === INT_OR_STRING_ANY_OF;
  for (const junctor of JUNCTORS) {
    const branches = node[junctor];
    if (!Array.isArray(branches)) continue;
    if (junctor === 'anyOf' && skipAnyOf) continue;
    branches.forEach((branch, index) => {
      if (isPlainObject(branch))
        checkNested(branch, node, [...path, junctor, index], junctor === 'allOf' && index === 0 && skipFirstAllOfAnyOf, add);
    });
  }
  if (isPlainObject(node.not)) checkNested(node.not, node, [...path, 'not'], false, add);
}

/** OpenAPI keywords a CRD schema may not use, at any depth. */
function checkKeywords(node: Node, path: Array<string | number>, add: Add): void {
  for (const [keyword, message] of Object.entries(UNSUPPORTED)) {
    if (node[keyword] === undefined) continue;
    add(
      [...path, keyword],
      message,
      keyword === '$ref' ? 'write the referenced schema inline: CRD schemas have no definitions to refer to' : `remove ${keyword}`,
    );
  }
  if (node.uniqueItems === true)
    add(
      [...path, 'uniqueItems'],
      'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      'use x-kubernetes-list-type: set for a list of unique scalars',
    );
  if (Array.isArray(node.items))
    add([...path, 'items'], 'items must be a schema object and not an array', 'give one schema for every element');
  if (typeof node.pattern === 'string') {
    try {
      RE2JS.compile(node.pattern);
    } catch (error) {
      add(
        [...path, 'pattern'],
        `must be a valid regular expression, but isn't: ${(error as Error).message}`,
        'write the pattern in Go (RE2) syntax: no lookahead, lookbehind or backreferences',
      );
    }
  }
}

/** Root metadata may restrict name and generateName only; the API server fills in the rest. */
function checkMetadata(metadata: Node, path: Array<string | number>, root: boolean, add: Add): void {
  if (metadata.type !== 'object') add([...path, 'type'], 'must be object', 'write type: object');
  if (!root) return;
  const others = Object.keys(metadata).filter((key) => !['type', 'properties', 'default'].includes(key));
  const properties = isPlainObject(metadata.properties) ? Object.keys(metadata.properties) : [];
  const otherProperties = properties.filter((name) => name !== 'name' && name !== 'generateName');
  if (others.length > 0 || otherProperties.length > 0) {
    add(
      path,
      `must not specify anything other than name and generateName, but metadata is implicitly specified (found ${[...others, ...otherProperties.map((name) => `properties.${name}`)].join(', ')})`,
      'write metadata: { type: object } and leave ObjectMeta to Kubernetes',
    );
  }
}

/** A node under a logic junctor: value validations only, on members the outer node declares. `skipAnyOf`: its anyOf is the int-or-string pattern. */
function checkNested(nested: Node, outer: Node, path: Array<string | number>, skipAnyOf: boolean, add: Add): void {
  checkKeywords(nested, path, add);
  if (nested.type !== undefined) add([...path, 'type'], 'must be empty to be structural');
  for (const keyword of [
    'additionalProperties',
    'default',
    'title',
    'description',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-list-type',
    'x-kubernetes-map-type',
    'x-kubernetes-validations',
  ]) {
    if (nested[keyword] !== undefined)
      add(
        [...path, keyword],
        `must be ${keyword === 'title' || keyword === 'description' || keyword === 'x-kubernetes-list-map-keys' || keyword === 'x-kubernetes-validations' ? 'empty' : 'undefined'} to be structural`,
      );
  }
  for (const keyword of [
    'nullable',
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-int-or-string',
  ]) {
    if (nested[keyword] === true) add([...path, keyword], 'must be false to be structural');
  }
  const nestedProperties = isPlainObject(nested.properties) ? nested.properties : {};
  const outerProperties = isPlainObject(outer.properties) ? outer.properties : {};
  if (Object.hasOwn(nestedProperties, 'metadata')) add([...path, 'properties', 'metadata'], 'must not be specified in a nested context');
  for (const [name, member] of Object.entries(nestedProperties)) {
    if (!isPlainObject(member)) continue;
    const declared = outerProperties[name];
    if (!isPlainObject(declared))
      add(
        [...path, 'properties', name],
        `must have a counterpart properties.${name} outside ${path.slice(-2).join('/')}: value validations may only restate typed fields`,
        `declare ${name} with its type in the node's own properties`,
      );
    checkNested(member, isPlainObject(declared) ? declared : {}, [...path, 'properties', name], false, add);
  }
  if (isPlainObject(nested.items)) {
    if (!isPlainObject(outer.items))
      add(
        [...path, 'items'],
        'must have a counterpart items outside the junctor: value validations may only restate typed items',
        'declare items with its type on the node itself',
      );
    checkNested(nested.items, isPlainObject(outer.items) ? outer.items : {}, [...path, 'items'], false, add);
  }
  for (const junctor of JUNCTORS) {
    const branches = nested[junctor];
    if (junctor === 'anyOf' && skipAnyOf) continue;
    if (Array.isArray(branches))
      branches.forEach((branch, index) => isPlainObject(branch) && checkNested(branch, outer, [...path, junctor, index], false, add));
  }
  if (isPlainObject(nested.not)) checkNested(nested.not, outer, [...path, 'not'], false, add);
}

function checkListAndMapTypes(node: Node, path: Array<string | number>, add: Add): void {
  const listType = node['x-kubernetes-list-type'];
  const mapKeys = node['x-kubernetes-list-map-keys'];
  const mapType = node['x-kubernetes-map-type'];
  const items = isPlainObject(node.items) ? node.items : undefined;
  if (mapType !== undefined) {
    if (node.type !== 'object') add([...path, 'type'], 'must be object if x-kubernetes-map-type is specified', 'write type: object');
    if (mapType !== 'atomic' && mapType !== 'granular')
      add(
        [...path, 'x-kubernetes-map-type'],
        `Unsupported value: ${JSON.stringify(mapType)}: supported values: "atomic", "granular"`,
        'write atomic or granular',
      );
  }
  if (listType !== undefined) {
    if (node.type !== 'array') add([...path, 'type'], 'must be array if x-kubernetes-list-type is specified', 'write type: array');
    if (!['atomic', 'set', 'map'].includes(String(listType)))
      add(
        [...path, 'x-kubernetes-list-type'],
        `Unsupported value: ${JSON.stringify(listType)}: supported values: "atomic", "map", "set"`,
        'write atomic, set or map',
      );
  }
  if (Array.isArray(mapKeys) && mapKeys.length > 0 && listType !== 'map')
    add([...path, 'x-kubernetes-list-type'], 'must be map if x-kubernetes-list-map-keys is non-empty', 'write x-kubernetes-list-type: map');
  if ((listType === 'set' || listType === 'map') && items?.nullable === true)
    add([...path, 'items', 'nullable'], `cannot be nullable when x-kubernetes-list-type is ${listType}`, 'remove nullable');
  if (listType !== 'map') return;
  if (!Array.isArray(mapKeys) || mapKeys.length === 0)
    add(
      [...path, 'x-kubernetes-list-map-keys'],
      'must not be empty if x-kubernetes-list-type is map',
      'name the item properties that identify an element, e.g. ["name"]',
    );
  if (items === undefined)
    return add([...path, 'items'], 'must have a schema if x-kubernetes-list-type is map', 'add items: { type: object, properties: … }');
  if (items.type !== 'object')
    return add([...path, 'items', 'type'], "must be object if parent array's x-kubernetes-list-type is map", 'write type: object');
  const itemProperties = isPlainObject(items.properties) ? items.properties : {};
  const required = Array.isArray(items.required) ? items.required : [];
  const seen = new Set<unknown>();
  for (const key of Array.isArray(mapKeys) ? mapKeys : []) {
    if (seen.has(key)) add([...path, 'x-kubernetes-list-map-keys'], 'must not contain duplicate entries', 'name each key once');
    seen.add(key);
    const property = itemProperties[String(key)];
    if (!isPlainObject(property)) {
      add(
        [...path, 'x-kubernetes-list-map-keys'],
        'entries must all be names of item properties',
        `declare ${String(key)} in items.properties`,
      );
      continue;
    }
    const at = [...path, 'items', 'properties', String(key)];
    if (property.type === 'array' || property.type === 'object')
      add(
        [...at, 'type'],
        "must be a scalar type if parent array's x-kubernetes-list-type is map",
        'key by a string, integer or boolean property',
      );
    if (!required.includes(key) && property.default === undefined)
      add(
        [...at, 'default'],
        'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        `add ${String(key)} to items.required`,
      );
    if (property.nullable === true)
      add([...at, 'nullable'], 'this property is in x-kubernetes-list-map-keys, so it cannot be nullable', 'remove nullable');
  }
}

/** The static part of x-kubernetes-validations; compiling the rules is cel-rules' work. */
function checkValidations(node: Node, path: Array<string | number>, add: Add): void {
  const rules = node['x-kubernetes-validations'];
  if (rules === undefined) return;
  if (!Array.isArray(rules)) return add([...path, 'x-kubernetes-validations'], 'must be a list of rules', 'write a list: - rule: "…"');
  rules.forEach((rule, index) => {
    const at = [...path, 'x-kubernetes-validations', index];
    if (!isPlainObject(rule)) return add(at, 'must be an object with a rule', 'write { rule: "…", message: "…" }');
    const text = typeof rule.rule === 'string' ? rule.rule.trim() : '';
    const message = typeof rule.message === 'string' ? rule.message.trim() : undefined;
    if (text === '')
      add([...at, 'rule'], 'rule is not specified', 'write a CEL expression that is true for a valid value, e.g. "self.min <= self.max"');
    else if (rule.message !== undefined && message === '')
      add([...at, 'message'], 'message must be non-empty if specified', 'say what is wrong, or remove message');
    else if (message !== undefined && /[\r\n]/.test(message))
      add([...at, 'message'], 'message must not contain line breaks', 'write the message on one line');
    else if (/[\r\n]/.test(text) && message === undefined)
      add([...at, 'message'], 'message must be specified if rule contains line breaks', 'add a one-line message');
    if (rule.messageExpression !== undefined && (typeof rule.messageExpression !== 'string' || rule.messageExpression.trim() === ''))
      add(
        [...at, 'messageExpression'],
        'messageExpression must be non-empty if specified',
        'write a CEL expression that gives a string, or remove it',
      );
    if (rule.reason !== undefined && !REASONS.includes(String(rule.reason)))
      add(
        [...at, 'reason'],
        `Unsupported value: ${JSON.stringify(rule.reason)}: supported values: ${REASONS.map((reason) => `"${reason}"`).join(', ')}`,
        'use one of the four reasons, or remove it',
      );
    if (rule.fieldPath !== undefined) {
      const fieldPath = typeof rule.fieldPath === 'string' ? rule.fieldPath : '';
      const segments = parseFieldPath(fieldPath);
      if (fieldPath.trim() === '')
        add([...at, 'fieldPath'], 'fieldPath must be non-empty if specified', 'write a path such as .spec.replicas, or remove it');
      else if (/[\r\n]/.test(fieldPath)) add([...at, 'fieldPath'], 'fieldPath must not contain line breaks', 'write the path on one line');
      else if (segments === undefined || !fieldPathExists(node, segments))
        add(
          [...at, 'fieldPath'],
          `fieldPath ${JSON.stringify(fieldPath)} must be a valid path`,
          "name a member below this node: .member, or ['member.with.dots']; array indexes are not allowed",
        );
    }
  });
}
