// Small DOM helpers shared by the console's modules.

export const $ = (id) => document.getElementById(id);

/** An element with properties (`className`, `htmlFor`, `value` …), `data-*` from `dataset`, attributes from `attrs`, and children. */
export function el(tag, properties = {}, ...children) {
  const { dataset, attrs, ...rest } = properties;
  const element = Object.assign(document.createElement(tag), rest);
  Object.assign(element.dataset, dataset ?? {});
  for (const [name, value] of Object.entries(attrs ?? {})) element.setAttribute(name, value);
  element.append(...children.filter((child) => child !== undefined && child !== null));
  return element;
}

export const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A JSON Pointer segment: `~` and `/` escaped. */
export const escapeSegment = (segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON Pointer into the request body of a path in `values`: ['web', 'spec'] is /values/web/spec. */
export const pointerOf = (segments) => ['/values', ...segments.map(escapeSegment)].join('/');
