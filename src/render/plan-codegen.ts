/**
 * Render plans as JavaScript: a merged plan becomes one straight-line function, generated once
 * (the way ajv compiles schemas), so that a render is a few property reads and assignments. Only
 * the bundle's own template content is ever written into the code, as JSON literals; caller
 * values are only ever data the function reads.
 */
import { toPointer } from '../util/json.js';
import type { Problem } from '../request/problems.js';
import { lookup } from '../request/resolve.js';
import { type MergeSite, mergeParts, type PartOrigin } from './merge-values.js';

/** A path the generated code reads in the input value (one alternative of a placeholder's `??`). */
export interface ValuePath {
  path: string[];
  /** Path as written, for messages. */
  text: string;
}

export type PlanNode =
  | { t: 'const'; value: string | number | boolean | null }
  | { t: 'object'; keys: string[]; nodes: PlanNode[]; root: boolean }
  | { t: 'array'; nodes: PlanNode[] }
  | { t: 'value'; alternatives: ValuePath[]; required: boolean; at: string }
  | { t: 'text'; parts: Array<string | ValuePath[]>; required: boolean; at: string }
  | { t: 'merge'; parts: PlanNode[]; at: string };

export interface RenderState {
  /** The key of values being read, for pointers. */
  id: string;
  problems: Problem[];
}

export type RenderFunction = (root: unknown, state: RenderState) => Record<string, unknown>;

interface SiteInfo {
  alternatives: ValuePath[];
  at: string;
}

const helpers = {
  hasOwn: Object.hasOwn,
  isArray: Array.isArray,
  missing(state: RenderState, site: SiteInfo): void {
    const [first, ...others] = site.alternatives;
    const either = others.length > 0 ? ` (or ${others.map((other) => other.text).join(' or ')})` : '';
    state.problems.push({
      pointer: toPointer(['values', state.id, ...first!.path]),
      detail: `is required${either}: it fills ${site.at || '/'} of the manifest`,
    });
  },
  notScalar(state: RenderState, site: SiteInfo, root: unknown): void {
    // Rare: find which alternative was defined, to point at it.
    const defined = site.alternatives.find((alternative) => lookup(root, alternative.path) !== undefined) ?? site.alternatives[0]!;
    state.problems.push({
      pointer: toPointer(['values', state.id, ...defined.path]),
      detail: `must be a string, number or boolean: it is part of the text of ${site.at} in the manifest`,
    });
  },
};

const literal = (value: unknown): string => JSON.stringify(value);

export function generateRenderFunction(plan: PlanNode): RenderFunction {
  const sites: SiteInfo[] = [];
  const mergeSites: MergeSite[] = [];
  const lines: string[] = [];
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}${counter++}`;

  /**
   * Every path prefix read at the top level of the function is read once and kept in a variable,
   * so sibling placeholders (`spec.selector`, `spec.ports`) share the reads of their parent.
   */
  const prefixes = new Map<string, string>();

  /**
   * A statement leaving in `to` the own member `segment` of `from`, or undefined. The member is read
   * first; the own-member check (a call, the costly part of a render) runs only when something was
   * found and may be inherited: an object whose prototype is Object.prototype (all JSON data) owns
   * any name Object.prototype lacks now. `__proto__` answers the prototype, or an own member of that
   * name (JSON.parse makes them), which only sends the read to the full check. A name never reads
   * into an array (no "length"); a digit segment indexes arrays and objects.
   */
  const step = (to: string, from: string, segment: string): string => {
    const key = literal(segment);
    const inherited = /^[0-9]+$/.test(segment)
      ? `!hasOwn(${from}, ${key})`
      : `(${from}.__proto__ !== OP || ${key} in OP) && (isArray(${from}) || !hasOwn(${from}, ${key}))`;
    return (
      `let ${to} = (typeof ${from} === "object" && ${from} !== null) ? ${from}[${key}] : undefined; ` +
      `if (${to} !== undefined && ${inherited}) ${to} = undefined;`
    );
  };

  /** The variable holding the value at `path` under root; new reads go into `out`, shared ones only when `shared`. */
  const readPath = (path: string[], out: string[], shared: boolean): string => {
    let from = 'root';
    path.forEach((segment, index) => {
      const prefix = JSON.stringify(path.slice(0, index + 1));
      const known = prefixes.get(prefix);
      if (known !== undefined) {
        from = known;
        return;
      }
      const to = fresh('p');
      out.push(step(to, from, segment));
      if (shared) prefixes.set(prefix, to);
      from = to;
    });
    return from;
  };

  /** Leaves in `target` the value of the first alternative that has one: later ones are read only when needed. */
  const readAlternatives = (target: string, alternatives: ValuePath[]): void => {
    alternatives.forEach((alternative, index) => {
      if (index === 0) {
        lines.push(`let ${target} = ${readPath(alternative.path, lines, true)};`);
        return;
      }
      const local: string[] = [];
      const value = readPath(alternative.path, local, false);
      lines.push(`if (${target} === undefined) { ${local.join(' ')} ${target} = ${value}; }`);
    });
  };

  // What is required is what the schema says (CONTRACT §4); strict=true only refuses unknown members.
  const requiredCheck = (required: boolean, site: number): string => (required ? `missing(state, sites[${site}]);` : '');

  /** Emits statements for a node; returns an expression holding its value, or undefined to remove it. */
  const emit = (node: PlanNode): string => {
    switch (node.t) {
      case 'const':
        return literal(node.value);
      case 'value': {
        const value = fresh('v');
        const site = sites.push({ alternatives: node.alternatives, at: node.at }) - 1;
        readAlternatives(value, node.alternatives);
        lines.push(`if (${value} === undefined) { ${requiredCheck(node.required, site)} }`);
        return value;
      }
      case 'text': {
        const text = fresh('s');
        const complete = fresh('ok');
        lines.push(`let ${text} = ""; let ${complete} = true;`);
        for (const part of node.parts) {
          if (typeof part === 'string') {
            lines.push(`${text} += ${literal(part)};`);
            continue;
          }
          const partSite = sites.push({ alternatives: part, at: node.at }) - 1;
          const value = fresh('v');
          readAlternatives(value, part);
          lines.push(
            `if (${value} === undefined) { ${complete} = false; ${requiredCheck(node.required, partSite)} }` +
              ` else if (typeof ${value} === "string" || typeof ${value} === "number" || typeof ${value} === "boolean") { ${text} += ${value}; }` +
              ` else { ${complete} = false; notScalar(state, sites[${partSite}], root); }`,
          );
        }
        return `(${complete} ? ${text} : undefined)`;
      }
      case 'object': {
        const values = node.nodes.map(emit);
        const object = fresh('o');
        const count = fresh('n');
        const alwaysFilled = node.root || node.keys.length === 0 || node.nodes.some((child) => child.t === 'const');
        lines.push(`const ${object} = {};${alwaysFilled ? '' : ` let ${count} = 0;`}`);
        node.keys.forEach((key, index) => {
          const value = values[index]!;
          const assign = `${object}[${literal(key)}] = ${value};${alwaysFilled ? '' : ` ${count}++;`}`;
          lines.push(node.nodes[index]!.t === 'const' ? assign : `if (${value} !== undefined) { ${assign} }`);
        });
        // An object left empty by removals goes too, except the manifest itself.
        return alwaysFilled ? object : `(${count} > 0 ? ${object} : undefined)`;
      }
      case 'merge': {
        const values = node.parts.map(emit);
        const site = mergeSites.push({ at: node.at, origins: node.parts.map(originOf) }) - 1;
        const merged = fresh('m');
        lines.push(`const ${merged} = mergeParts(state, mergeSites[${site}], root, [${values.join(', ')}]);`);
        return merged;
      }
      case 'array': {
        const values = node.nodes.map(emit);
        const array = fresh('a');
        lines.push(`const ${array} = [];`);
        values.forEach((value, index) =>
          lines.push(
            node.nodes[index]!.t === 'const' ? `${array}.push(${value});` : `if (${value} !== undefined) ${array}.push(${value});`,
          ),
        );
        return node.nodes.length === 0 ? array : `(${array}.length > 0 ? ${array} : undefined)`;
      }
    }
  };

  const result = emit(plan);
  const body = `"use strict";\nreturn function render(root, state) {\n${lines.join('\n')}\nreturn ${result};\n};`;
  const factory = new Function('sites', 'hasOwn', 'isArray', 'OP', 'missing', 'notScalar', 'mergeParts', 'mergeSites', body) as (
    ...args: unknown[]
  ) => RenderFunction;
  return factory(sites, helpers.hasOwn, helpers.isArray, Object.prototype, helpers.missing, helpers.notScalar, mergeParts, mergeSites);
}

/** Where the members of a merged part come from, for a refusal to point at the request member that gave one. */
function originOf(node: PlanNode): PartOrigin {
  switch (node.t) {
    case 'value':
      return { from: 'values', alternatives: node.alternatives };
    case 'text': {
      const [first] = node.parts.filter((part): part is ValuePath[] => typeof part !== 'string');
      return first === undefined ? { from: 'template' } : { from: 'values', alternatives: first };
    }
    case 'object':
      return { from: 'object', members: Object.fromEntries(node.keys.map((key, index) => [key, originOf(node.nodes[index]!)])) };
    default:
      // A constant; an array or a merge is compared whole, and lint keeps the template's own members from conflicting.
      return { from: 'template' };
  }
}
