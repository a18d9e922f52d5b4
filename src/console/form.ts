/// <reference lib="dom" />
// The values form, built from the collection's input schema: for the values entry the collection's
// variable reads, the fields of the inputs the selected facets' sections read (or, when the server
// does not say which those are, of the whole schema). Enums are selects, required members are
// marked and always shown, descriptions are help text. Entries and members the schema does not
// describe are edited as they are, each leaf keeping its JSON type while the text allows.

import { isPlainObject, type JsonValue } from '../util/json.js';
import { el, pointerOf } from './dom.js';
import {
  type EditOptions,
  type FormBuild,
  type FormContext,
  helpFor,
  type InputTree,
  jsonEditor,
  labelText,
  removeButton,
  selectEditor,
  textEditor,
  untyped,
} from './form-fields.js';
import { childSchema, emptyValue, type Field, fieldOf } from './schema.js';
import { getAt, setAt } from './values-at.js';

export type { FormContext } from './form-fields.js';

type Compound<K extends Field['kind']> = Extract<Field, { kind: K }>;

/** Input paths (`spec.ports`) as a tree of member names; null marks a path read whole. */
function treeOf(paths: readonly string[]): InputTree {
  const tree: InputTree = new Map();
  for (const path of paths) {
    let node = tree;
    const segments = path.split('.');
    segments.forEach((segment, index) => {
      if (index === segments.length - 1) node.set(segment, null);
      else if (node.get(segment) !== null) {
        if (!node.has(segment)) node.set(segment, new Map());
        node = node.get(segment)!;
      } else node = new Map(); // an ancestor is read whole already: it shows this member too
    });
  }
  return tree;
}

/**
 * Builds the form into `container`. `context`: `values` (the request's values, edited in place),
 * `schema` (the collection's input schema), `entry` (the values entry the collection's variable
 * reads), `inputs` (input paths of the selected sections, or undefined for the whole schema),
 * `shown` (a Set of pointers of members added but not yet given a value), `onValue()` after an edit,
 * `onStructure(focusPointer)` after a member or item was added or removed (build again).
 */
export function buildValuesForm(container: HTMLElement, context: FormContext): void {
  let count = 0;
  const c: FormBuild = { ...context, unread: [], id: (prefix = 'field') => `${prefix}-${count++}` };
  container.replaceChildren();
  const entries = Object.keys(c.values);
  if (c.schema && c.entry !== undefined && !entries.includes(c.entry)) entries.unshift(c.entry);
  for (const entry of entries) {
    if (c.schema && entry === c.entry) {
      const tree = c.inputs ? treeOf(c.inputs) : undefined;
      editField(c, fieldOf(c.schema, c.schema), [entry], `values.${entry}`, { container, tree });
    } else {
      const note = c.schema ? `not read by ${c.variable}: edited as it is` : undefined;
      untyped(c, getAt(c.values, [entry]), [entry], `values.${entry}`, container, note);
    }
  }
  if (c.unread.length > 0) {
    const paths = c.unread.map((segments) => segments.slice(1).join('.'));
    container.append(
      el('p', { className: 'hint' }, `Kept in values but read by no selected facet (edit as JSON to change): ${paths.join(', ')}`),
    );
  }
}

/** A value's editor, by the kind of field its schema needs. */
function editField(c: FormBuild, field: Field, segments: string[], label: string, options: EditOptions): void {
  switch (field.kind) {
    case 'object':
    case 'map':
      return objectEditor(c, field, segments, label, options);
    case 'array':
      return arrayEditor(c, field, segments, label, options);
    case 'enum':
    case 'boolean':
      return selectEditor(c, field, segments, label, options);
    case 'text':
      return textEditor(c, field, segments, label, options);
    default:
      return jsonEditor(c, field, segments, label, options);
  }
}

function fieldsetFor(c: FormBuild, field: Field, segments: string[], label: string, options: EditOptions): HTMLFieldSetElement {
  const { required, removable, container } = options;
  const set = el('fieldset', { dataset: { pointer: pointerOf(segments) } }, el('legend', {}, ...labelText(label, required)));
  const [help, helpId] = helpFor(c, field.description);
  if (help) {
    set.append(help);
    set.setAttribute('aria-describedby', helpId);
  }
  if (removable) set.append(removeButton(c, segments, label));
  container.append(set);
  return set;
}

/**
 * An object (named members) or a map (any names). Shown: the members the selected inputs read,
 * the required ones, and, where the whole value is an input, those it has and those just added;
 * the others can be added. Below an input (`tree` names the inputs), only the inputs are shown.
 */
function objectEditor(c: FormBuild, field: Compound<'object' | 'map'>, segments: string[], label: string, options: EditOptions): void {
  const value = getAt(c.values, segments);
  const present: Record<string, JsonValue> = isPlainObject(value) ? (value as Record<string, JsonValue>) : {};
  const below = options.tree; // undefined: this whole value is an input
  const required = field.kind === 'object' ? field.required : new Set<string>();
  const set = fieldsetFor(c, field, segments, label, options);
  const known = field.kind === 'object' ? Object.keys(field.properties) : [];
  const wanted = (name: string) =>
    required.has(name) || below?.has(name) || (below === undefined && (name in present || c.shown.has(pointerOf([...segments, name]))));
  const names = [
    ...known.filter(wanted),
    ...[...(below?.keys() ?? []), ...Object.keys(present)].filter((name) => !known.includes(name) && wanted(name)),
  ];
  for (const name of [...new Set(names)]) {
    const schema = childSchema(field, name);
    const path = [...segments, name];
    if (schema === undefined) {
      untyped(c, present[name], path, name, set, 'not in the schema');
      continue;
    }
    const child = fieldOf(schema, c.schema!);
    // Below an input, a map's entries and the optional members that hold an object, list or any JSON can be removed (a text is emptied instead).
    const removable =
      below === undefined &&
      (field.kind === 'map' || (!required.has(name) && name in present && ['object', 'map', 'array', 'json'].includes(child.kind)));
    editField(c, child, path, name, { container: set, required: required.has(name), tree: below?.get(name) ?? undefined, removable });
  }
  if (below !== undefined) {
    for (const name of Object.keys(present)) if (!names.includes(name)) c.unread.push([...segments, name]);
    return;
  }
  if (field.kind === 'object') addMember(c, field, segments, label, known.filter((name) => !names.includes(name)).sort(), set);
  else addEntry(c, field, segments, label, present, set);
}

/** A select of the members not shown yet, and a button that adds the chosen one. */
function addMember(c: FormBuild, field: Compound<'object'>, segments: string[], label: string, absent: string[], set: HTMLElement): void {
  if (absent.length === 0) return;
  const id = c.id('add');
  const choices = absent.map((name) =>
    el('option', { value: name, textContent: name, title: fieldOf(field.properties[name], c.schema!).description }),
  );
  const select = el('select', { id }, el('option', { value: '', textContent: 'choose a member…' }), ...choices);
  const button = el('button', { type: 'button', textContent: 'Add', attrs: { 'aria-label': `Add the chosen member to ${label}` } });
  button.addEventListener('click', () => {
    if (!select.value) return select.focus();
    const pointer = pointerOf([...segments, select.value]);
    c.shown.add(pointer);
    c.onStructure(pointer);
  });
  set.append(el('div', { className: 'add' }, el('label', { htmlFor: id, textContent: 'Add member' }), select, button));
}

/** A map's new entry: a name and a button. */
function addEntry(
  c: FormBuild,
  field: Compound<'map'>,
  segments: string[],
  label: string,
  present: Record<string, JsonValue>,
  set: HTMLElement,
): void {
  const id = c.id('add');
  const name = el('input', { type: 'text', id, spellcheck: false, placeholder: 'name' });
  const button = el('button', { type: 'button', textContent: 'Add', attrs: { 'aria-label': `Add an entry to ${label}` } });
  const add = () => {
    if (!name.value || name.value in present) return name.focus();
    const path = [...segments, name.value];
    setAt(c.values, path, emptyValue(fieldOf(field.additional, c.schema!)) ?? '');
    c.onStructure(pointerOf(path));
  };
  button.addEventListener('click', add);
  name.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      add();
    }
  });
  set.append(el('div', { className: 'add' }, el('label', { htmlFor: id, textContent: 'New entry' }), name, button));
}

/** A list: its items, each with a remove button, and a button that adds one. */
function arrayEditor(c: FormBuild, field: Compound<'array'>, segments: string[], label: string, options: EditOptions): void {
  const value = getAt(c.values, segments);
  const items = Array.isArray(value) ? value : [];
  const set = fieldsetFor(c, field, segments, label, options);
  const item = fieldOf(field.items, c.schema!);
  items.forEach((_, index) => {
    const path = [...segments, String(index)];
    const structured = ['object', 'map', 'array'].includes(item.kind);
    editField(c, structured || index === 0 ? item : { ...item, description: '' }, path, structured ? `${label}[${index}]` : `[${index}]`, {
      container: set,
      inArray: true,
      removable: true,
    });
  });
  const button = el('button', {
    type: 'button',
    className: 'add-item',
    textContent: 'Add item',
    attrs: { 'aria-label': `Add an item to ${label}` },
  });
  button.addEventListener('click', () => {
    const path = [...segments, String(items.length)];
    const empty = emptyValue(item);
    setAt(c.values, path, empty === undefined ? (item.kind === 'text' ? 0 : '') : empty);
    c.onStructure(pointerOf(path));
  });
  set.append(el('div', { className: 'add' }, button));
}
