/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// Small DOM helpers shared by the console's modules.

import { toPointer } from '../util/json.js';

/** The page's element with this id: index.html has it, so a missing one is a bug worth failing on. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the console page has no element #${id}`);
  return element as T;
}

/** An input of the page, by id (`$input('api-key')`). */
export const $input = (id: string) => $<HTMLInputElement>(id);

type Properties<K extends keyof HTMLElementTagNameMap> = Partial<Omit<HTMLElementTagNameMap[K], 'dataset'>> & {
  dataset?: Record<string, string>;
  attrs?: Record<string, string>;
};

/** An element with properties (`className`, `htmlFor`, `value` …), `data-*` from `dataset`, attributes from `attrs`, and children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  properties: Properties<K> = {},
  ...children: Array<Node | string | undefined>
): HTMLElementTagNameMap[K] {
  const { dataset, attrs, ...rest } = properties;
  const element = Object.assign(document.createElement(tag), rest);
  Object.assign(element.dataset, dataset ?? {});
  for (const [name, value] of Object.entries(attrs ?? {})) element.setAttribute(name, value);
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

/** Every element `selector` finds, typed. */
export const all = <T extends Element = HTMLElement>(selector: string, root: ParentNode = document): T[] => [
  ...root.querySelectorAll<T>(selector),
];

/** The value of the checked radio of a group (`mode`, `format`). */
export const checkedValue = (name: string): string => document.querySelector<HTMLInputElement>(`input[name="${name}"]:checked`)!.value;

/** The JSON Pointer into the request body of a path in `values`: ['web', 'spec'] is /values/web/spec. */
export const pointerOf = (segments: readonly string[]): string => toPointer(['values', ...segments]);
