/// <reference lib="dom" />
// The values form's rows: a label, one control that carries the pointer errors find, a Remove
// button, help text from the schema's description; and the editors of single values (text, a
// choice, any JSON) and of values the schema does not describe.

import type { JsonObject, JsonValue } from '../util/json.js';
import { el, pointerOf } from './dom.js';
import { type Field, parseText, type Schema, type TextField, textHint } from './schema.js';
import { getAt, setAt } from './values-at.js';

/** What the form is built from and reports to; see buildValuesForm. */
export interface FormContext {
  values: JsonObject;
  schema: Schema | undefined;
  variable: string | undefined;
  entry: string | undefined;
  inputs: string[] | undefined;
  shown: Set<string>;
  onValue(): void;
  onStructure(focusPointer: string): void;
}

/** One build of the form: its context, the paths kept in values but not shown, and a source of element ids. */
export interface FormBuild extends FormContext {
  unread: string[][];
  id(prefix?: string): string;
}

/** Input paths below a value, as a tree of member names; null marks a path read whole. */
export type InputTree = Map<string, InputTree | null>;

export interface EditOptions {
  container: HTMLElement;
  required?: boolean;
  /** The input paths below (undefined: the whole value is an input). */
  tree?: InputTree | undefined;
  removable?: boolean;
  inArray?: boolean;
}

// ---- Help text -------------------------------------------------------------------------------------

/** The first sentence of a description (at most about 160 characters), and the rest (all of it, when the sentence was cut). */
function firstSentence(text: string): [string, string] {
  const match = /^([^\n]{12,}?[.!?])\s+(?=[A-Z"`'(*])/.exec(text) ?? /^([^\n]+)\n/.exec(text);
  const [first, rest] = match ? [match[1]!, text.slice(match[0].length).trim()] : [text, ''];
  if (first.length <= 200) return [first, rest];
  const cut = first.lastIndexOf(' ', 160);
  return [`${first.slice(0, cut > 80 ? cut : 160)}…`, text];
}

/** Help text from a description: the first sentence, the rest behind "more". Returns [element, id]. */
export function helpFor(c: FormBuild, description: string): [HTMLElement, string] | [undefined, undefined] {
  const text = description.trim();
  if (!text) return [undefined, undefined];
  const id = c.id('help');
  const [first, rest] = firstSentence(text);
  if (!rest) return [el('p', { className: 'help', id }, text), id];
  return [el('details', { className: 'help' }, el('summary', { id }, first), el('p', {}, rest)), id];
}

export const labelText = (text: string, required: boolean | undefined): Array<string | HTMLElement> => [
  text,
  ...(required ? [' ', el('span', { className: 'required' }, 'required')] : []),
];

// ---- Rows ------------------------------------------------------------------------------------------

export function removeButton(c: FormBuild, segments: string[], label: string): HTMLButtonElement {
  const button = el('button', { type: 'button', className: 'remove', textContent: 'Remove', attrs: { 'aria-label': `Remove ${label}` } });
  button.addEventListener('click', () => {
    setAt(c.values, segments, undefined);
    c.shown.delete(pointerOf(segments));
    c.onStructure(pointerOf(segments.slice(0, -1)));
  });
  return button;
}

interface Row {
  control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  segments: string[];
  label: string;
  required?: boolean | undefined;
  description: string;
  removable?: boolean | undefined;
  container: HTMLElement;
}

/** One row: label, control, remove button, help; the control carries the pointer errors find. */
function row(c: FormBuild, { control, segments, label, required, description, removable, container }: Row): void {
  const id = c.id();
  control.id = id;
  control.dataset.pointer = pointerOf(segments);
  if (required) control.setAttribute('aria-required', 'true');
  const [help, helpId] = helpFor(c, description);
  if (helpId) control.setAttribute('aria-describedby', helpId);
  const remove = removable ? removeButton(c, segments, label) : undefined;
  container.append(el('div', { className: 'field' }, el('label', { htmlFor: id }, ...labelText(label, required)), control, remove, help));
}

const rowOf = (control: Row['control'], field: Field, segments: string[], label: string, options: EditOptions): Row => ({
  control,
  segments,
  label,
  required: options.required,
  description: field.description,
  removable: options.removable,
  container: options.container,
});

/** A value as the text of an input: a string as it is, anything else as JSON. */
const asText = (value: JsonValue | undefined): string =>
  value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);

// ---- Editors of single values ----------------------------------------------------------------------

const hasLineBreak = (text: string) => /[\r\n]/.test(text);
const linesOf = (text: string) => Math.min(12, Math.max(2, text.split('\n').length));

function linesArea(text: string, placeholder: string, onText: (text: string) => void): HTMLTextAreaElement {
  const area = el('textarea', { rows: linesOf(text), spellcheck: false, placeholder, value: text });
  area.addEventListener('input', () => {
    area.rows = linesOf(area.value);
    onText(area.value);
  });
  return area;
}

/**
 * A text's control: one line, or a text area when the text has line breaks (a properties file in a
 * ConfigMap), which an input would drop: `<input>` strips them from its value, and the first
 * keystroke would send the lines joined. Pasting lines into an input, or Shift+Enter, makes it a
 * text area, with its id, pointer and ARIA attributes.
 */
function textControl(text: string, placeholder: string, onText: (text: string) => void): HTMLInputElement | HTMLTextAreaElement {
  if (hasLineBreak(text)) return linesArea(text, placeholder, onText);
  const input = el('input', { type: 'text', spellcheck: false, placeholder, value: text });
  input.addEventListener('input', () => onText(input.value));
  const insertLines = (inserted: string) => {
    const { value } = input;
    const start = input.selectionStart ?? value.length;
    const next = value.slice(0, start) + inserted + value.slice(input.selectionEnd ?? value.length);
    const area = linesArea(next, placeholder, onText);
    for (const { name, value: attribute } of [...input.attributes]) if (name !== 'type') area.setAttribute(name, attribute);
    input.replaceWith(area);
    area.focus();
    area.setSelectionRange(start + inserted.length, start + inserted.length);
    onText(next);
  };
  input.addEventListener('paste', (event) => {
    const pasted = event.clipboardData?.getData('text/plain') ?? '';
    if (!hasLineBreak(pasted)) return;
    event.preventDefault();
    insertLines(pasted.replace(/\r\n?/g, '\n'));
  });
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !event.shiftKey) return;
    event.preventDefault();
    insertLines('\n');
  });
  return input;
}

export function textEditor(c: FormBuild, field: TextField, segments: string[], label: string, options: EditOptions): void {
  const control = textControl(asText(getAt(c.values, segments)), textHint(field), (text) => {
    // An empty field leaves the member out; in a list the item stays, as an empty string.
    setAt(c.values, segments, text === '' && !options.inArray ? undefined : parseText(text, field));
    c.onValue();
  });
  row(c, rowOf(control, field, segments, label, options));
}

/** An enum (its values) or a boolean (true, false) as a select; "not set" leaves the member out. */
export function selectEditor(c: FormBuild, field: Field, segments: string[], label: string, options: EditOptions): void {
  const value = getAt(c.values, segments);
  const choices = field.kind === 'enum' ? field.values : [true, false];
  const control = el('select');
  if (!options.inArray) control.append(el('option', { value: '', textContent: options.required ? '— choose —' : '(not set)' }));
  choices.forEach((choice, index) =>
    control.append(el('option', { value: String(index), textContent: typeof choice === 'string' ? choice : JSON.stringify(choice) })),
  );
  const current = choices.findIndex((choice) => JSON.stringify(choice) === JSON.stringify(value));
  if (value !== undefined && current === -1)
    control.append(el('option', { value: 'other', textContent: `${JSON.stringify(value)} (not one of the choices)` }));
  control.value = value === undefined ? '' : current === -1 ? 'other' : String(current);
  control.addEventListener('change', () => {
    if (control.value === 'other') return;
    setAt(c.values, segments, control.value === '' ? undefined : choices[Number(control.value)]);
    c.onValue();
  });
  row(c, rowOf(control, field, segments, label, options));
}

/** Any JSON: the text is read as JSON where it parses, else as a string; an object or list in a text area. */
export function jsonEditor(c: FormBuild, field: Field, segments: string[], label: string, options: EditOptions): void {
  const value = getAt(c.values, segments);
  const structured = value !== null && typeof value === 'object';
  const onText = (text: string) => {
    let parsed: JsonValue = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      if (/^\s*[[{]/.test(text)) return; // an object or list being typed: wait until it parses
    }
    setAt(c.values, segments, text === '' && !options.inArray ? undefined : parsed);
    c.onValue();
  };
  const control = structured ? linesArea(JSON.stringify(value, null, 2), '', onText) : textControl(asText(value), 'JSON', onText);
  row(c, rowOf(control, field, segments, label, options));
}

// ---- Values the schema does not describe -----------------------------------------------------------

/** Keeps a leaf's JSON type where the text allows it: "80" stays a number, "http" becomes a string. */
function parseLeaf(text: string, type: string): JsonValue {
  if (type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'null' && text === 'null') return null;
  return text;
}

export function untyped(
  c: FormBuild,
  node: JsonValue | undefined,
  segments: string[],
  label: string,
  container: HTMLElement,
  note?: string,
): void {
  if (node !== null && typeof node === 'object') {
    const set = el('fieldset', { dataset: { pointer: pointerOf(segments) } }, el('legend', { textContent: label }));
    if (note) set.append(el('p', { className: 'help', textContent: note }));
    for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node))
      untyped(c, child, [...segments, String(key)], String(key), set);
    container.append(set);
    return;
  }
  let control: HTMLInputElement | HTMLTextAreaElement;
  if (typeof node === 'boolean') {
    const box = (control = el('input', { type: 'checkbox', checked: node }));
    control.addEventListener('change', () => {
      setAt(c.values, segments, box.checked);
      c.onValue();
    });
  } else {
    const type = node === null ? 'null' : typeof node;
    control = textControl(node === null ? 'null' : String(node ?? ''), '', (text) => {
      setAt(c.values, segments, parseLeaf(text, type));
      c.onValue();
    });
  }
  row(c, { control, segments, label, description: note ?? '', container });
}
