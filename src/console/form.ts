// The values form, built from the collection's input schema: for the values entry the collection's
// variable reads, the fields of the inputs the selected facets' sections read (or, when the server
// does not say which those are, of the whole schema). Enums are selects, required members are
// marked and always shown, descriptions are help text. Entries and members the schema does not
// describe are edited as they are, each leaf keeping its JSON type while the text allows.

import { el, isObject, pointerOf } from './dom.js';
import { childSchema, emptyValue, fieldOf, parseText, textHint } from './schema.js';

// ---- Values at a path ------------------------------------------------------------------------------

function getAt(root, segments) {
  let node = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[segment];
  }
  return node;
}

/** Sets (or, for undefined, removes) the value at a path, making the objects and lists above it. */
function setAt(root, segments, value) {
  let node = root;
  segments.slice(0, -1).forEach((segment, index) => {
    if (node[segment] === null || typeof node[segment] !== 'object') node[segment] = /^\d+$/.test(segments[index + 1]) ? [] : {};
    node = node[segment];
  });
  const last = segments.at(-1);
  if (value !== undefined) node[last] = value;
  else if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
}

// ---- Input paths -----------------------------------------------------------------------------------

/** Input paths (`spec.ports`) as a tree of member names; null marks a path read whole. */
function treeOf(paths) {
  const tree = new Map();
  for (const path of paths) {
    let node = tree;
    const segments = path.split('.');
    segments.forEach((segment, index) => {
      if (index === segments.length - 1) node.set(segment, null);
      else if (node.get(segment) !== null) {
        if (!node.has(segment)) node.set(segment, new Map());
        node = node.get(segment);
      } else node = new Map(); // an ancestor is read whole already: it shows this member too
    });
  }
  return tree;
}

// ---- Help text -------------------------------------------------------------------------------------

/** The first sentence of a description (at most about 160 characters), and the rest (all of it, when the sentence was cut). */
function firstSentence(text) {
  const match = /^([^\n]{12,}?[.!?])\s+(?=[A-Z"`'(*])/.exec(text) ?? /^([^\n]+)\n/.exec(text);
  const [first, rest] = match ? [match[1], text.slice(match[0].length).trim()] : [text, ''];
  if (first.length <= 200) return [first, rest];
  const cut = first.lastIndexOf(' ', 160);
  return [`${first.slice(0, cut > 80 ? cut : 160)}…`, text];
}

// ---- The builder -----------------------------------------------------------------------------------

/**
 * Builds the form into `container`. `context`: `values` (the request's values, edited in place),
 * `schema` (the collection's input schema), `entry` (the values entry the collection's variable
 * reads), `inputs` (input paths of the selected sections, or undefined for the whole schema),
 * `shown` (a Set of pointers of members added but not yet given a value), `onValue()` after an edit,
 * `onStructure(focusPointer)` after a member or item was added or removed (build again).
 */
export function buildValuesForm(container, context) {
  let count = 0;
  const c = { ...context, unread: [], id: (prefix = 'field') => `${prefix}-${count++}` };
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
    container.append(el('p', { className: 'hint' }, `Kept in values but read by no selected facet (edit as JSON to change): ${paths.join(', ')}`));
  }
}

/** A value's editor, by the kind of field its schema needs. `options`: container, required, tree (the input paths below), removable (a Remove button), inArray. */
function editField(c, field, segments, label, options) {
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

function labelText(text, required) {
  return [text, ...(required ? [' ', el('span', { className: 'required' }, 'required')] : [])];
}

/** Help text from a description: the first sentence, the rest behind "more". Returns [element, id]. */
function helpFor(c, description) {
  const text = description.trim();
  if (!text) return [undefined, undefined];
  const id = c.id('help');
  const [first, rest] = firstSentence(text);
  if (!rest) return [el('p', { className: 'help', id }, text), id];
  return [el('details', { className: 'help' }, el('summary', { id }, first), el('p', {}, rest)), id];
}

function removeButton(c, segments, label) {
  const button = el('button', { type: 'button', className: 'remove', textContent: 'Remove', attrs: { 'aria-label': `Remove ${label}` } });
  button.addEventListener('click', () => {
    setAt(c.values, segments, undefined);
    c.shown.delete(pointerOf(segments));
    c.onStructure(pointerOf(segments.slice(0, -1)));
  });
  return button;
}

/** One row: label, control, remove button, help; the control carries the pointer errors find. */
function row(c, { control, segments, label, required, description, removable, container }) {
  const id = c.id();
  control.id = id;
  control.dataset.pointer = pointerOf(segments);
  if (required) control.setAttribute('aria-required', 'true');
  const [help, helpId] = helpFor(c, description);
  if (helpId) control.setAttribute('aria-describedby', helpId);
  const field = el('div', { className: 'field' }, el('label', { htmlFor: id }, ...labelText(label, required)), control, removable ? removeButton(c, segments, label) : undefined, help);
  container.append(field);
}

function textEditor(c, field, segments, label, options) {
  const value = getAt(c.values, segments);
  const control = el('input', { type: 'text', spellcheck: false, placeholder: textHint(field), value: value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value) });
  control.addEventListener('input', () => {
    // An empty field leaves the member out; in a list the item stays, as an empty string.
    setAt(c.values, segments, control.value === '' && !options.inArray ? undefined : parseText(control.value, field));
    c.onValue();
  });
  row(c, { control, segments, label, required: options.required, description: field.description, removable: options.removable, container: options.container });
}

/** An enum (its values) or a boolean (true, false) as a select; "not set" leaves the member out. */
function selectEditor(c, field, segments, label, options) {
  const value = getAt(c.values, segments);
  const choices = field.kind === 'enum' ? field.values : [true, false];
  const control = el('select');
  if (!options.inArray) control.append(el('option', { value: '', textContent: options.required ? '— choose —' : '(not set)' }));
  choices.forEach((choice, index) => control.append(el('option', { value: String(index), textContent: typeof choice === 'string' ? choice : JSON.stringify(choice) })));
  const current = choices.findIndex((choice) => JSON.stringify(choice) === JSON.stringify(value));
  if (value !== undefined && current === -1) control.append(el('option', { value: 'other', textContent: `${JSON.stringify(value)} (not one of the choices)` }));
  control.value = value === undefined ? '' : current === -1 ? 'other' : String(current);
  control.addEventListener('change', () => {
    if (control.value === 'other') return;
    setAt(c.values, segments, control.value === '' ? undefined : choices[Number(control.value)]);
    c.onValue();
  });
  row(c, { control, segments, label, required: options.required, description: field.description, removable: options.removable, container: options.container });
}

/** Any JSON: the text is read as JSON where it parses, else as a string; an object or list in a text area. */
function jsonEditor(c, field, segments, label, options) {
  const value = getAt(c.values, segments);
  const structured = value !== null && typeof value === 'object';
  const control = structured
    ? el('textarea', { rows: Math.min(8, JSON.stringify(value, null, 2).split('\n').length), spellcheck: false, value: JSON.stringify(value, null, 2) })
    : el('input', { type: 'text', spellcheck: false, placeholder: 'JSON', value: value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value) });
  control.addEventListener('input', () => {
    const text = control.value;
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (/^\s*[[{]/.test(text)) return; // an object or list being typed: wait until it parses
    }
    setAt(c.values, segments, text === '' && !options.inArray ? undefined : parsed);
    c.onValue();
  });
  row(c, { control, segments, label, required: options.required, description: field.description, removable: options.removable, container: options.container });
}

function fieldsetFor(c, segments, label, { required, description, removable, container }) {
  const set = el('fieldset', { dataset: { pointer: pointerOf(segments) } }, el('legend', {}, ...labelText(label, required)));
  const [help, helpId] = helpFor(c, description);
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
function objectEditor(c, field, segments, label, options) {
  const value = getAt(c.values, segments);
  const present = isObject(value) ? value : {};
  const below = options.tree; // undefined: this whole value is an input
  const required = field.kind === 'object' ? field.required : new Set();
  const set = fieldsetFor(c, segments, label, { required: options.required, description: field.description, removable: options.removable, container: options.container });
  const known = field.kind === 'object' ? Object.keys(field.properties) : [];
  const wanted = (name) => required.has(name) || below?.has(name) || (below === undefined && (name in present || c.shown.has(pointerOf([...segments, name]))));
  const names = [...known.filter(wanted), ...[...(below?.keys() ?? []), ...Object.keys(present)].filter((name) => !known.includes(name) && wanted(name))];
  for (const name of [...new Set(names)]) {
    const schema = childSchema(field, name);
    const path = [...segments, name];
    if (schema === undefined) {
      untyped(c, present[name], path, name, set, 'not in the schema');
      continue;
    }
    const child = fieldOf(schema, c.schema);
    // Below an input, a map's entries and the optional members that hold an object, list or any JSON can be removed (a text is emptied instead).
    const removable = below === undefined && (field.kind === 'map' || (!required.has(name) && name in present && ['object', 'map', 'array', 'json'].includes(child.kind)));
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
function addMember(c, field, segments, label, absent, set) {
  if (absent.length === 0) return;
  const id = c.id('add');
  const select = el('select', { id }, el('option', { value: '', textContent: 'choose a member…' }), ...absent.map((name) => el('option', { value: name, textContent: name, title: fieldOf(field.properties[name], c.schema).description })));
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
function addEntry(c, field, segments, label, present, set) {
  const id = c.id('add');
  const name = el('input', { type: 'text', id, spellcheck: false, placeholder: 'name' });
  const button = el('button', { type: 'button', textContent: 'Add', attrs: { 'aria-label': `Add an entry to ${label}` } });
  const add = () => {
    if (!name.value || name.value in present) return name.focus();
    const path = [...segments, name.value];
    setAt(c.values, path, emptyValue(fieldOf(field.additional, c.schema)) ?? '');
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
function arrayEditor(c, field, segments, label, options) {
  const value = getAt(c.values, segments);
  const items = Array.isArray(value) ? value : [];
  const set = fieldsetFor(c, segments, label, { required: options.required, description: field.description, removable: options.removable, container: options.container });
  const item = fieldOf(field.items, c.schema);
  items.forEach((_, index) => {
    const path = [...segments, String(index)];
    const structured = ['object', 'map', 'array'].includes(item.kind);
    editField(c, structured || index === 0 ? item : { ...item, description: '' }, path, structured ? `${label}[${index}]` : `[${index}]`, { container: set, inArray: true, removable: true });
  });
  const button = el('button', { type: 'button', className: 'add-item', textContent: 'Add item', attrs: { 'aria-label': `Add an item to ${label}` } });
  button.addEventListener('click', () => {
    const path = [...segments, String(items.length)];
    const empty = emptyValue(item);
    setAt(c.values, path, empty === undefined ? (item.kind === 'text' ? 0 : '') : empty);
    c.onStructure(pointerOf(path));
  });
  set.append(el('div', { className: 'add' }, button));
}

// ---- Values the schema does not describe -----------------------------------------------------------

/** Keeps a leaf's JSON type where the text allows it: "80" stays a number, "http" becomes a string. */
function parseLeaf(text, type) {
  if (type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'null' && text === 'null') return null;
  return text;
}

function untyped(c, node, segments, label, container, note) {
  if (node !== null && typeof node === 'object') {
    const set = el('fieldset', { dataset: { pointer: pointerOf(segments) } }, el('legend', { textContent: label }));
    if (note) set.append(el('p', { className: 'help', textContent: note }));
    for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node)) untyped(c, child, [...segments, String(key)], String(key), set);
    container.append(set);
    return;
  }
  let control;
  if (typeof node === 'boolean') {
    control = el('input', { type: 'checkbox', checked: node });
    control.addEventListener('change', () => {
      setAt(c.values, segments, control.checked);
      c.onValue();
    });
  } else {
    const type = node === null ? 'null' : typeof node;
    control = el('input', { type: 'text', spellcheck: false, value: node === null ? 'null' : String(node ?? '') });
    control.addEventListener('input', () => {
      setAt(c.values, segments, parseLeaf(control.value, type));
      c.onValue();
    });
  }
  row(c, { control, segments, label, description: note ?? '', container });
}
