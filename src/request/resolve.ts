/**
 * Resolving a template variable to the caller's input object (CONTRACT §3):
 * `VAR` reads `values[globalvars[VAR]]`; with no entry for `VAR` and exactly one entry in `values`,
 * that entry is used. Lookups read own properties only.
 */
import { isPlainObject, ownMember, toPointer } from '../util/json.js';
import { cut } from '../util/text.js';
import type { Problem } from './problems.js';

export interface ResolvedVariable {
  /** The key of `values` the variable reads. */
  id: string;
  value: unknown;
}

export function resolveVariable(variable: string, values: unknown, globalvars: unknown): ResolvedVariable | Problem {
  const usual = usualRequest(variable, values, globalvars);
  if (usual !== undefined) return usual;
  const valuesObject = isPlainObject(values) ? values : {};
  const mapped = ownMember(globalvars, variable);
  // Listing the keys costs a little on every request; only the fallback and the errors need them.
  // `mapped` is caller data: never coerce it (an object whose toString is not a function throws).
  const ids = typeof mapped === 'string' && Object.hasOwn(valuesObject, mapped) ? [] : Object.keys(valuesObject);
  let id: string;
  if (mapped === undefined) {
    if (ids.length !== 1) {
      return {
        pointer: '/globalvars',
        detail:
          ids.length === 0
            ? `values is empty: add the input object for ${variable} to values`
            : `has no entry for ${variable} and values has ${ids.length} entries ` +
              `(${listed(ids.map((key) => cut(key, 64)))}): set globalvars.${variable} ` +
              `to the one to use`,
      };
    }
    id = ids[0]!;
  } else if (typeof mapped !== 'string') {
    return { pointer: toPointer(['globalvars', variable]), detail: 'must be a string naming a key of values' };
  } else if (!Object.hasOwn(valuesObject, mapped)) {
    return {
      pointer: toPointer(['globalvars', variable]),
      detail: `names "${cut(mapped, 64)}", which values lacks; values has ${ids.length === 0 ? 'no entries' : listed(ids.map((key) => `"${cut(key, 64)}"`))}`,
    };
  } else {
    id = mapped;
  }
  const value = valuesObject[id];
  if (!isPlainObject(value)) {
    return { pointer: toPointer(['values', id]), detail: `must be an object holding the input values of ${variable}` };
  }
  return { id, value };
}

/**
 * The usual request, JSON data naming its input object, read without a call per member to ask
 * whether it is own: an object whose prototype is Object.prototype owns any member found under a
 * name Object.prototype lacks (the render functions read the same way, src/render/plan-codegen.ts).
 * Each check is written out here, not shared, so that each keeps its own inline cache.
 */
function usualRequest(variable: string, values: unknown, globalvars: unknown): ResolvedVariable | undefined {
  if (!isPlainObject(values) || !isPlainObject(globalvars)) return undefined;
  const mapped = globalvars[variable];
  if (typeof mapped !== 'string' || globalvars.__proto__ !== Object.prototype || variable in Object.prototype) return undefined;
  const value = values[mapped];
  if (!isPlainObject(value) || values.__proto__ !== Object.prototype || mapped in Object.prototype) return undefined;
  return { id: mapped, value };
}

/** Names of entries as a message lists them: the first twenty, then how many more. Ids may be long and many. */
function listed(names: string[]): string {
  return names.length <= 20 ? names.join(', ') : `${names.slice(0, 20).join(', ')} and ${names.length - 20} more`;
}

/** Reads `path` under `root`, own members only; undefined when any step is missing. */
export function lookup(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const segment of path) {
    current = ownMember(current, segment);
    if (current === undefined) return undefined;
  }
  return current;
}
