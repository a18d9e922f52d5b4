// facetform console: pick a collection and facets, edit values, see the manifest as you type.
// Plain JavaScript modules served as they are: no build step, no CDN, nothing from elsewhere.
// The values form is built from the collection's input schema (form.js, schema.js).

import { $, el, escapeSegment, isObject } from './dom.js';
import { buildValuesForm } from './form.js';

const KEY_STORAGE = 'facetform.apiKey';
const RENDER_DELAY_MS = 250;
const KEY_MESSAGE =
  'The server refused the API key: it is missing or wrong. Enter the key the server printed at start (or one of its API_KEYS or API_KEYS_FILE) in the API key field at the top and press Use key.';

const state = {
  key: sessionStorage.getItem(KEY_STORAGE) ?? '',
  collection: undefined, // the collection's discovery document
  collectionPath: '',
  schema: undefined, // its input JSON Schema
  values: {},
  globalvars: {},
  shown: new Set(), // pointers of members added to the form but not given a value yet
  renderSeq: 0,
  renderTimer: undefined,
  manifest: '',
};

// ---- API -------------------------------------------------------------------------------------

/** A refused request: its status and, when the server sent one, its problem+json. */
class ApiError extends Error {
  constructor(path, status, problem) {
    super(status === 401 ? KEY_MESSAGE : problem?.detail ? `${problem.title}: ${problem.detail}` : `${path}: HTTP ${status}`);
    this.status = status;
  }
}

async function api(path, init = {}) {
  const headers = new Headers(init.headers);
  if (state.key) headers.set('X-APIKEY', state.key);
  const response = await fetch(path, { ...init, headers });
  if (response.status === 401) showKeyState(state.key ? 'rejected' : 'not set', false);
  return response;
}

async function apiJson(path) {
  const response = await api(path);
  if (!response.ok) throw new ApiError(path, response.status, await response.json().catch(() => undefined));
  return response.json();
}

// ---- API key -----------------------------------------------------------------------------------

function showKeyState(text, ok) {
  $('key-state').textContent = text;
  $('key-state').classList.toggle('set', ok);
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  state.key = $('api-key').value.trim();
  if (state.key) sessionStorage.setItem(KEY_STORAGE, state.key);
  else sessionStorage.removeItem(KEY_STORAGE);
  $('api-key').value = '';
  showKeyState(state.key ? 'set' : 'not set', Boolean(state.key));
  if (state.key) loadRepositories();
  else $('pick-hint').textContent = 'Enter the API key to load the collections.';
});

// ---- Repository, collection, facets ----------------------------------------------------------------

const option = (value, text) => el('option', { value, textContent: text });

async function loadRepositories() {
  $('pick-hint').textContent = 'Loading the collections…';
  try {
    const { vendors } = await apiJson('/apis/repos');
    const select = $('repository');
    select.replaceChildren();
    for (const vendor of vendors) {
      const { repositories } = await apiJson(vendor.href);
      for (const repository of repositories) {
        for (const version of repository.apiVersions) select.append(option(version.href, `${repository.name} ${version.apiVersion} (${version.latest})`));
      }
    }
    select.disabled = select.options.length === 0;
    $('pick-hint').textContent = select.options.length === 0 ? 'No repositories are served.' : '';
    await loadCollections();
  } catch (error) {
    $('pick-hint').textContent = error.status === 401 ? KEY_MESSAGE : `Could not load the collections: ${error.message}`;
  }
}

async function loadCollections(preferred = 'service') {
  const href = $('repository').value;
  if (!href) return;
  const { collections } = await apiJson(href);
  const select = $('collection');
  select.replaceChildren(...collections.map((collection) => option(collection.href, `${collection.name} (${collection.kind})`)));
  select.disabled = false;
  const wanted = collections.find((collection) => collection.name === preferred);
  if (wanted) select.value = wanted.href;
  await loadCollection();
}

/** Failures while choosing are said where the collections are chosen. */
const reportLoadError = (error) => ($('pick-hint').textContent = error.status === 401 ? KEY_MESSAGE : `Could not load the collection: ${error.message}`);

async function loadCollection() {
  const href = $('collection').value;
  if (!href) return;
  const collection = await apiJson(href);
  const schema = await apiJson(collection.links.schema);
  state.collection = collection;
  state.collectionPath = href;
  state.schema = schema;
  $('pick-hint').textContent = '';
  $('collection-description').textContent = collection.description;
  buildFacets(collection);

  const examples = $('example');
  examples.replaceChildren(...collection.examples.map((example, index) => option(String(index), example.description ? `${example.name}: ${example.description}` : example.name)));
  examples.disabled = collection.examples.length === 0;
  const seed = collection.examples.findIndex((example) => example.name === 'seed');
  examples.value = String(Math.max(seed, 0));
  applyExample();

  $('schema').textContent = JSON.stringify(schema, null, 2);
  const types = await api(collection.links.types);
  $('types').textContent = types.ok ? await types.text() : `(not available: ${types.status})`;
}

/** One checkbox per facet, and under it each section it adds, with that section's description, as a list. */
function buildFacets(collection) {
  const list = $('facet-list');
  list.replaceChildren();
  const order = (a, b) => (a === 'master' ? -1 : b === 'master' ? 1 : a.localeCompare(b));
  for (const facet of collection.facets.slice().sort(order)) {
    const id = `facet-${facet.replace(/[^a-z0-9-]/g, '-')}`;
    const box = el('input', { type: 'checkbox', id, value: facet, checked: facet === 'master', disabled: facet === 'master' }); // master sections are always rendered
    box.addEventListener('change', () => {
      buildForm();
      scheduleRender();
    });
    const sections = collection.sections.filter((section) => section.facets.includes(facet));
    const note = el(
      'ul',
      { id: `${id}-note`, className: 'facet-sections' },
      ...sections.map((section) =>
        el('li', {}, el('span', { className: 'section-name', textContent: section.name }), `: ${section.description}`, section.inputs?.length ? el('span', { className: 'inputs', textContent: ` (reads ${section.inputs.join(', ')})` }) : undefined),
      ),
    );
    box.setAttribute('aria-describedby', note.id);
    list.append(el('div', { className: 'facet' }, box, el('label', { htmlFor: id, textContent: facet === 'master' ? 'master (always on)' : facet }), note));
  }
  $('facets').disabled = false;
}

const selectedFacets = () => ['master', ...[...$('facet-list').querySelectorAll('input:checked')].map((box) => box.value).filter((facet) => facet !== 'master')];

function applyExample() {
  const example = state.collection?.examples[Number($('example').value)];
  const variable = state.collection?.variable;
  const request = example?.request ?? { values: { app: {} }, globalvars: variable ? { [variable]: 'app' } : {} };
  state.values = structuredClone(request.values ?? {});
  state.globalvars = structuredClone(request.globalvars ?? {});
  state.shown.clear();
  const chosen = new Set(request.facets ?? []);
  for (const box of $('facet-list').querySelectorAll('input[type="checkbox"]')) if (!box.disabled) box.checked = chosen.has(box.value);
  buildForm();
  buildGlobalvars();
  showValuesJson();
  scheduleRender();
}

$('repository').addEventListener('change', () => loadCollections().catch(reportLoadError));
$('collection').addEventListener('change', () => loadCollection().catch(reportLoadError));
$('example').addEventListener('change', applyExample);

// ---- Values editor: a form built from the schema, or the raw JSON ------------------------------------

/**
 * The input paths the selected facets' sections read, as the collection document lists them
 * (`inputs` of each section); undefined when the server does not say, and the form shows the
 * whole schema.
 */
function selectedInputs() {
  const sections = state.collection?.sections ?? [];
  if (!sections.every((section) => Array.isArray(section.inputs))) return undefined;
  const facets = new Set(selectedFacets());
  return [...new Set(sections.filter((section) => section.facets.some((facet) => facets.has(facet))).flatMap((section) => section.inputs))].sort();
}

/** Builds the form again, keeping the focus on `focusPointer` (or on the control that had it) where it still exists. */
function buildForm(focusPointer) {
  if (jsonMode()) return;
  const focused = focusPointer ?? document.activeElement?.closest?.('#values-form [data-pointer]')?.dataset.pointer;
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
    const target = $('values-form').querySelector(`[data-pointer="${CSS.escape(focused)}"]`);
    (target?.matches('fieldset') ? target.querySelector('input, select, textarea, button') : target)?.focus();
  }
}

function buildGlobalvars() {
  const container = $('globalvars');
  container.replaceChildren();
  const variable = state.collection?.variable;
  const names = [...new Set([...(variable ? [variable] : []), ...Object.keys(state.globalvars)])];
  for (const name of names) {
    const id = `globalvar-${name}`;
    const input = el('input', { type: 'text', id, value: state.globalvars[name] ?? '', placeholder: 'key of values', dataset: { pointer: `/globalvars/${escapeSegment(name)}` } });
    input.addEventListener('input', () => {
      if (input.value === '') delete state.globalvars[name];
      else state.globalvars[name] = input.value;
      if (name === variable) buildForm(); // the form follows the entry the variable reads
      scheduleRender();
    });
    container.append(el('div', { className: 'field' }, el('label', { htmlFor: id, textContent: name }), input));
  }
}

const jsonError = () => document.querySelector('[data-error-for="/values/json"]');

/** Shows the values in the JSON editor; they are valid, so a complaint about the editor's text is gone. */
function showValuesJson() {
  $('values-json').value = JSON.stringify(state.values, null, 2);
  jsonError().hidden = true;
}

function valuesChanged() {
  showValuesJson();
  scheduleRender();
}

$('values-json').addEventListener('input', () => {
  let parsed;
  try {
    parsed = JSON.parse($('values-json').value);
  } catch (parseError) {
    return refuseJson(`not valid JSON: ${parseError.message}`);
  }
  if (!isObject(parsed)) return refuseJson('values must be an object: { "<id>": { …input values… } }');
  state.values = parsed;
  jsonError().hidden = true;
  scheduleRender();
});

/** The editor's text cannot be sent: say why, and drop the server's errors, which were about the last request sent. */
function refuseJson(message) {
  clearTimeout(state.renderTimer);
  state.renderSeq++; // an answer still on its way is about older values
  clearErrors();
  jsonError().textContent = message;
  jsonError().hidden = false;
  $('render-state').textContent = `Not sent: the values are not valid yet${state.manifest ? ' (the manifest shown is the last one that rendered)' : ''}.`;
  if (state.manifest) $('manifest').classList.add('stale');
}

const jsonMode = () => document.querySelector('input[name="mode"]:checked').value === 'json';

for (const radio of document.querySelectorAll('input[name="mode"]')) {
  radio.addEventListener('change', () => {
    const json = jsonMode();
    $('values-json-wrap').hidden = !json;
    $('values-form').hidden = json;
    if (!json) {
      showValuesJson(); // the form shows the last values that were valid, and so does the editor from now on
      buildForm();
    }
    scheduleRender(); // the server's errors are shown where the editor now shown can show them
  });
}
for (const radio of document.querySelectorAll('input[name="format"]')) radio.addEventListener('change', scheduleRender);

// ---- Render ------------------------------------------------------------------------------------------

const requestBody = () => ({ facets: selectedFacets(), values: state.values, globalvars: state.globalvars });
const format = () => document.querySelector('input[name="format"]:checked').value;
const execPath = () => `${state.collectionPath}/exec?format=${format()}`;

function scheduleRender() {
  clearTimeout(state.renderTimer);
  state.renderTimer = setTimeout(render, RENDER_DELAY_MS);
}

/** Removes every error the server reported for an earlier request. */
function clearErrors() {
  $('json-errors').replaceChildren();
  $('json-errors').hidden = true;
  for (const element of document.querySelectorAll('.field-error')) {
    if (element.dataset.errorFor === '/values/json') continue;
    if (element.dataset.dynamic) element.remove();
    else element.hidden = true;
  }
  for (const element of document.querySelectorAll('[aria-invalid="true"]')) {
    element.removeAttribute('aria-invalid');
    element.removeAttribute('aria-errormessage');
  }
  for (const element of document.querySelectorAll('fieldset[data-error-id]')) {
    element.setAttribute('aria-describedby', element.dataset.describedBy ?? '');
    if (!element.dataset.describedBy) element.removeAttribute('aria-describedby');
    delete element.dataset.errorId;
  }
}

/** Puts an error next to the field its pointer names, or the nearest enclosing one; in JSON mode, under the editor. */
function showError(pointer, detail) {
  if (jsonMode() && pointer.startsWith('/values')) {
    $('json-errors').append(el('li', { textContent: `${pointer}: ${detail}` }));
    $('json-errors').hidden = false;
    return;
  }
  const fixed = document.querySelector(`[data-error-for="${CSS.escape(pointer.startsWith('/facets') ? '/facets' : pointer)}"]`);
  if (fixed && !fixed.dataset.dynamic) {
    fixed.textContent = pointer.startsWith('/facets') ? `${pointer}: ${detail}` : detail;
    fixed.hidden = false;
    return;
  }
  let segments = pointer.split('/');
  let target;
  let missing = '';
  while (segments.length > 1 && !(target = document.querySelector(`[data-pointer="${CSS.escape(segments.join('/'))}"]`))) {
    missing = `${segments.at(-1)}${missing ? '/' + missing : ''}`;
    segments = segments.slice(0, -1);
  }
  if (!target) {
    const general = document.querySelector('[data-error-for="/values"]');
    general.textContent = `${pointer}: ${detail}`;
    general.hidden = false;
    return;
  }
  const message = el('p', { className: 'field-error', id: `error-${Math.random().toString(36).slice(2)}`, dataset: { dynamic: 'true' }, textContent: missing ? `${missing}: ${detail}` : detail });
  if (target.tagName === 'FIELDSET') {
    target.append(message);
    if (!target.dataset.errorId) target.dataset.describedBy = target.getAttribute('aria-describedby') ?? '';
    target.dataset.errorId = message.id;
    target.setAttribute('aria-describedby', `${target.dataset.describedBy} ${message.id}`.trim());
  } else {
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-errormessage', message.id);
    target.closest('.field').append(message);
  }
}

async function render() {
  if (!state.collectionPath) return;
  const seq = ++state.renderSeq;
  const body = requestBody();
  $('command').textContent = curlCommand(body);
  $('render-state').textContent = 'rendering…';
  let response;
  let text;
  try {
    response = await api(execPath(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    text = await response.text();
  } catch (error) {
    if (seq !== state.renderSeq) return;
    clearErrors();
    $('render-state').textContent = `The request failed: ${error.message}`;
    $('manifest').classList.add('stale');
    return;
  }
  if (seq !== state.renderSeq) return; // a newer edit is already on its way
  clearErrors();
  $('warnings').replaceChildren(...warningTexts(response.headers.get('warning') ?? '').map((text) => el('li', { textContent: text })));
  if (response.ok) {
    state.manifest = text;
    $('manifest').textContent = text;
    $('manifest').classList.remove('stale');
    $('render-state').textContent = `rendered by release ${response.headers.get('x-facetform-release')}`;
    return;
  }
  $('manifest').classList.add('stale'); // the last good manifest stays, dimmed
  let problem;
  try {
    problem = JSON.parse(text);
  } catch {
    problem = { title: `HTTP ${response.status}`, detail: text };
  }
  const last = state.manifest ? ' (the manifest shown is the last one that rendered)' : '';
  $('render-state').textContent = response.status === 401 ? KEY_MESSAGE : `${problem.title}: ${problem.detail}${last}`;
  for (const error of problem.errors ?? []) showError(error.pointer, error.detail);
}

// ---- Copy --------------------------------------------------------------------------------------------

function curlCommand(body) {
  const json = JSON.stringify(body).replace(/'/g, `'\\''`);
  return `curl -s -X POST '${location.origin}${execPath()}' -H "X-APIKEY: $API_KEY" -H 'Content-Type: application/json' -d '${json}' | kubectl apply -f -`;
}

async function copy(text, what) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API needs a secure context; fall back to a selection.
    const area = Object.assign(document.createElement('textarea'), { value: text });
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
  $('copy-state').textContent = `${what} copied`;
}

$('copy-manifest').addEventListener('click', () => copy(state.manifest, 'manifest'));
$('copy-command').addEventListener('click', () => copy($('command').textContent, 'command'));

// ---- Start -------------------------------------------------------------------------------------------

showKeyState(state.key ? 'set' : 'not set', Boolean(state.key));
if (state.key) loadRepositories();

/** The texts of Warning headers: quoted-strings whose bytes are UTF-8 (fetch hands them over as Latin-1 characters). */
function warningTexts(header) {
  const texts = header.match(/\d{3} \S+ "(?:[^"\\]|\\.)*"/g) ?? [];
  return texts.map((warning) => {
    const quoted = warning.slice(warning.indexOf('"') + 1, -1).replace(/\\(.)/g, '$1');
    return new TextDecoder().decode(Uint8Array.from(quoted, (c) => c.charCodeAt(0)));
  });
}
