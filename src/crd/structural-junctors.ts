/**
 * The value validations under allOf/anyOf/oneOf/not: they may only restate what the node types
 * outside them (Kubernetes' structural rule), except the int-or-string anyOf pattern.
 */
import { isPlainObject } from '../util/json.js';
import { checkKeywords } from './structural-keywords.js';
import type { Add, SchemaNode as Node } from './structural-report.js';

const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;
const INT_OR_STRING_ANY_OF = JSON.stringify([{ type: 'integer' }, { type: 'string' }]);

/** The junctors of a typed node, each branch checked against the node. */
export function checkJunctors(node: Node, path: Array<string | number>, add: Add): void {
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
        `must be ${keyword === 'title' || keyword === 'description' || keyword === 'x-kubernetes-list-map-keys' || keyword === 'x-kubernetes-validations' ? 'empty' : 'undefined'} ` +
          `to be structural`,
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
