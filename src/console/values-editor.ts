/// <reference lib="dom" />
// The values editor: the form built from the schema, or the values as JSON text; and globalvars.

import { execRequestProblems } from '../request/request-shape.js';
import { toPointer } from '../util/json.js';
import { $, el } from './dom.js';
import { clearErrors } from './errors.js';
import { selectedInputs } from './facets.js';
import { buildValuesForm } from './form.js';
import { cancelRender, lastManifestNote, scheduleRender } from './render.js';
import { jsonMode, state } from './state.js';

/** Builds the form again, keeping the focus on `focusPointer` (or on the control that had it) where it still exists. */
export function buildForm(focusPointer?: string): void {
  if (jsonMode()) return;
  const focused = focusPointer ?? document.activeElement?.closest?.<HTMLElement>('#values-form [data-pointer]')?.dataset.pointer;
  const variable = state.collection?.variable;
  buildValuesForm($('values-form'), {
    values: state.values,
    schema: state.schema,
    variable,
    entry: variable ? state.globalvars[variable] : undefined,
    inputs: selectedInputs(),
    shown: state.shown,
    onValue: valuesChanged,
    onStructure: (pointer) => {
      buildForm(pointer);
      valuesChanged();
    },
  });
  if (focused !== undefined) {
    const target = $('values-form').querySelector<HTMLElement>(`[data-pointer="${CSS.escape(focused)}"]`);
    (target?.matches('fieldset') ? target.querySelector<HTMLElement>('input, select, textarea, button') : target)?.focus();
  }
}

/** One text field per global variable: the collection's variable, and any other the values name. */
export function buildGlobalvars(): void {
  const container = $('globalvars');
  container.replaceChildren();
  const variable = state.collection?.variable;
  const names = [...new Set([...(variable ? [variable] : []), ...Object.keys(state.globalvars)])];
  for (const name of names) {
    const id = `globalvar-${name}`;
    const input = el('input', {
      type: 'text',
      id,
      value: state.globalvars[name] ?? '',
      placeholder: 'key of values',
      dataset: { pointer: toPointer(['globalvars', name]) },
    });
    input.addEventListener('input', () => {
      if (input.value === '') delete state.globalvars[name];
      else state.globalvars[name] = input.value;
      if (name === variable) buildForm(); // the form follows the entry the variable reads
      scheduleRender();
    });
    container.append(el('div', { className: 'field' }, el('label', { htmlFor: id, textContent: name }), input));
  }
}

const jsonError = () => document.querySelector<HTMLElement>('[data-error-for="/values/json"]')!;

/** Shows the values in the JSON editor; they are valid, so a complaint about the editor's text is gone. */
export function showValuesJson(): void {
  $<HTMLTextAreaElement>('values-json').value = JSON.stringify(state.values, null, 2);
  jsonError().hidden = true;
}

function valuesChanged(): void {
  showValuesJson();
  scheduleRender();
}

/** The JSON editor's text, taken as the values when it is an object. */
export function valuesJsonEdited(): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse($<HTMLTextAreaElement>('values-json').value);
  } catch (parseError) {
    return refuseJson(`not valid JSON: ${(parseError as Error).message}`);
  }
  // The request's shape is the server's own rule (request-shape.ts); entries are left for the server to name by field.
  const shape = execRequestProblems({ values: parsed }).find((problem) => problem.pointer === '/values');
  if (shape !== undefined) return refuseJson(`values ${shape.detail}: { "<id>": { …input values… } }`);
  state.values = parsed as typeof state.values;
  jsonError().hidden = true;
  scheduleRender();
}

/** The editor's text cannot be sent: say why, and drop the server's errors, which were about the last request sent. */
function refuseJson(message: string): void {
  cancelRender();
  clearErrors();
  jsonError().textContent = message;
  jsonError().hidden = false;
  $('render-state').textContent = `Not sent: the values are not valid yet${lastManifestNote()}.`;
  if (state.manifest) $('manifest').classList.add('stale');
}

/** Form or JSON: the editor shown changes, and so does where the server's errors can be shown. */
export function modeChanged(): void {
  const json = jsonMode();
  $('values-json-wrap').hidden = !json;
  $('values-form').hidden = json;
  if (!json) {
    showValuesJson(); // the form shows the last values that were valid, and so does the editor from now on
    buildForm();
  }
  scheduleRender(); // the server's errors are shown where the editor now shown can show them
}
