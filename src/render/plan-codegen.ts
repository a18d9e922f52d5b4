/**
 * Render plans as JavaScript: a merged plan becomes one straight-line function, generated once
 * (the way ajv compiles schemas), so that a render is a few property reads and assignments. Only
 * the bundle's own template content is ever written into the code, as JSON literals; caller
 * values are only ever data the function reads.
 */
import { toPointer } from '../util/json.js';
import type { Problem } from '../request/problems.js';
import { lookup } from '../request/resolve.js';

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
  | { t: 'text'; parts: Array<string | ValuePath[]>; required: boolean; at: string };

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
  const lines: string[] = [];
  let counter = 0;
  const fresh = (prefix: string) => `${prefix}${counter++}`;

  /** Statements that leave in `target` the value at `path` under root, own members only, or undefined. */
  const readPath = (target: string, path: string[]): string =>
    path
      .map((segment) => {
        const index = /^[0-9]+$/.test(segment);
        // A name never reads into an array (no "length"); a digit segment indexes arrays and objects.
        return (
          `${target} = (${target} !== null && typeof ${target} === "object"${index ? '' : ` && !isArray(${target})`} ` +
          `&& hasOwn(${target}, ${literal(segment)})) ? ${target}[${literal(segment)}] ` +
          `: undefined;`
        );
      })
      .join(' ');

  const readAlternatives = (target: string, alternatives: ValuePath[]): void => {
    alternatives.forEach((alternative, index) => {
      const read = `${target} = root; ${readPath(target, alternative.path)}`;
      lines.push(index === 0 ? `let ${target}; ${read}` : `if (${target} === undefined) { ${read} }`);
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
  const factory = new Function('sites', 'hasOwn', 'isArray', 'missing', 'notScalar', body) as (...args: unknown[]) => RenderFunction;
  return factory(sites, helpers.hasOwn, helpers.isArray, helpers.missing, helpers.notScalar);
}
