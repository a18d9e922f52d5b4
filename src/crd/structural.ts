/**
 * The rules the API server applies to a CRD version's openAPIV3Schema before it takes the CRD: a
 * *structural* schema (every node typed, logic junctors only restate what is typed outside them,
 * metadata restricted to name and generateName), the OpenAPI keywords CRDs do not support, and the
 * Kubernetes extensions' own rules. Kubernetes' messages, with a pointer into the CRD file each.
 * This module walks the schema and holds the typing rules; each other concept is a structural-*.ts.
 */
import { isPlainObject } from '../util/json.js';
import { prunedMembers } from './default-pruning.js';
import type { CrdProblem } from './crd-problem.js';
import { checkJunctors } from './structural-junctors.js';
import { checkKeywords } from './structural-keywords.js';
import { checkListAndMapTypes } from './structural-list-types.js';
import { type Add, problemCollector, type SchemaNode as Node } from './structural-report.js';
import { checkValidations } from './structural-validations.js';

type Level = 'root' | 'item' | 'field';

const TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);

/** Every problem of one version's openAPIV3Schema; `pointer` is where the schema sits in the CRD file. */
export function structuralProblems(schema: Node, pointer: string): CrdProblem[] {
  const { problems, add } = problemCollector(pointer);
  checkNode(schema, [], 'root', { insideMeta: false, defaultsForbidden: undefined }, add);
  return problems;
}

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
  else if (node.default !== undefined) {
    const pruned = prunedMembers(node.default, node);
    if (pruned.length > 0)
      add(
        [...path, 'default'],
        `must not have unknown fields (${pruned.join(', ')}): the API server would prune them`,
        'write only members the schema declares, or remove them from the default',
      );
  }
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
  checkJunctors(node, path, add);
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
      `must not specify anything other than name and generateName, but ` +
        `metadata is implicitly specified (found ${[...others, ...otherProperties.map((name) => `properties.${name}`)].join(', ')})`,
      'write metadata: { type: object } and leave ObjectMeta to Kubernetes',
    );
  }
}
