// facetform console: pick a collection and facets, edit values, see the manifest as you type.
// Plain JavaScript served as it is: no build step, no CDN, nothing from elsewhere.

const KEY_STORAGE = 'facetform.apiKey';
const RENDER_DELAY_MS = 250;

const $ = (id) => document.getElementById(id);
const state = {
  key: sessionStorage.getItem(KEY_STORAGE) ?? '',
  collection: undefined, // the collection's discovery document
  collectionPath: '',
  values: {},
  globalvars: {},
  renderSeq: 0,
  renderTimer: undefined,
  manifest: '',
};

// ---- API -------------------------------------------------------------------------------------

async function api(path, init = {}) {
  const headers = new Headers(init.headers);
  if (state.key) headers.set('X-APIKEY', state.key);
  const response = await fetch(path, { ...init, headers });
  if (response.status === 401) showKeyState('rejected: enter a valid key', false);
  return response;
}

async function apiJson(path) {
  const response = await api(path);
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
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
});

// ---- Repository, collection, facets ----------------------------------------------------------------

function option(value, text) {
  const element = document.createElement('option');
  element.value = value;
  element.textContent = text;
  return element;
}

async function loadRepositories() {
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
    $('pick-hint').textContent = `Could not load the collections: ${error.message}`;
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

async function loadCollection() {
  const href = $('collection').value;
  if (!href) return;
  const collection = await apiJson(href);
  state.collection = collection;
  state.collectionPath = href;
  $('collection-description').textContent = collection.description;

  const list = $('facet-list');
  list.replaceChildren();
  const described = new Map();
  for (const section of collection.sections) {
    for (const facet of section.facets) {
      if (!described.has(facet)) described.set(facet, []);
      described.get(facet).push(`${section.name}: ${section.description}`);
    }
  }
  for (const facet of collection.facets.slice().sort((a, b) => (a === 'master' ? -1 : b === 'master' ? 1 : a.localeCompare(b)))) {
    const id = `facet-${facet.replace(/[^a-z0-9-]/g, '-')}`;
    const row = document.createElement('div');
    row.className = 'facet';
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.id = id;
    box.value = facet;
    box.checked = facet === 'master';
    box.disabled = facet === 'master'; // master sections are always rendered
    box.addEventListener('change', scheduleRender);
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = facet === 'master' ? 'master (always on)' : facet;
    const note = document.createElement('small');
    note.id = `${id}-note`;
    note.textContent = described.get(facet).join(' · ');
    box.setAttribute('aria-describedby', note.id);
    row.append(box, label, note);
    list.append(row);
  }
  $('facets').disabled = false;

  const examples = $('example');
  examples.replaceChildren(...collection.examples.map((example, index) => option(String(index), example.description ? `${example.name}: ${example.description}` : example.name)));
  examples.disabled = collection.examples.length === 0;
  const seed = collection.examples.findIndex((example) => example.name === 'seed');
  examples.value = String(Math.max(seed, 0));
  applyExample();

  $('schema').textContent = JSON.stringify(await apiJson(collection.links.schema), null, 2);
  const types = await api(collection.links.types);
  $('types').textContent = types.ok ? await types.text() : `(not available: ${types.status})`;
}

function applyExample() {
  const example = state.collection?.examples[Number($('example').value)];
  const request = example?.request ?? { values: { app: {} } };
  state.values = structuredClone(request.values ?? {});
  state.globalvars = structuredClone(request.globalvars ?? {});
  const chosen = new Set(request.facets ?? []);
  for (const box of $('facet-list').querySelectorAll('input[type="checkbox"]')) if (!box.disabled) box.checked = chosen.has(box.value);
  buildForm();
  buildGlobalvars();
  $('values-json').value = JSON.stringify(state.values, null, 2);
  scheduleRender();
}

$('repository').addEventListener('change', () => loadCollections());
$('collection').addEventListener('change', () => loadCollection());
$('example').addEventListener('change', applyExample);

// ---- Values editor: a form built from the values, or the raw JSON ------------------------------------

const escapeSegment = (segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
let fieldCount = 0;

function setAt(pointer, value) {
  const segments = pointer.split('/').slice(2).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = state.values;
  for (const segment of segments.slice(0, -1)) node = node[segment];
  node[segments.at(-1)] = value;
}

/** Keeps a leaf's JSON type where the text allows it: "80" stays a number, "http" becomes a string. */
function parseLeaf(text, type) {
  if (type === 'number' && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'null' && text === 'null') return null;
  return text;
}

function buildNode(node, pointer, label, container) {
  if (node !== null && typeof node === 'object') {
    const set = document.createElement('fieldset');
    set.dataset.pointer = pointer;
    const legend = document.createElement('legend');
    legend.textContent = label;
    set.append(legend);
    for (const [key, child] of Array.isArray(node) ? node.entries() : Object.entries(node)) buildNode(child, `${pointer}/${escapeSegment(key)}`, String(key), set);
    container.append(set);
    return;
  }
  const field = document.createElement('div');
  field.className = 'field';
  const id = `field-${fieldCount++}`;
  const labelElement = document.createElement('label');
  labelElement.htmlFor = id;
  labelElement.textContent = label;
  const input = document.createElement('input');
  input.id = id;
  input.dataset.pointer = pointer;
  if (typeof node === 'boolean') {
    input.type = 'checkbox';
    input.checked = node;
    input.addEventListener('change', () => {
      setAt(pointer, input.checked);
      valuesChanged();
    });
  } else {
    input.type = 'text';
    input.value = node === null ? 'null' : String(node);
    const type = node === null ? 'null' : typeof node;
    input.addEventListener('input', () => {
      setAt(pointer, parseLeaf(input.value, type));
      valuesChanged();
    });
  }
  field.append(labelElement, input);
  container.append(field);
}

function buildForm() {
  fieldCount = 0;
  const form = $('values-form');
  form.replaceChildren();
  for (const [id, value] of Object.entries(state.values)) buildNode(value, `/values/${escapeSegment(id)}`, `values.${id}`, form);
}

function buildGlobalvars() {
  const container = $('globalvars');
  container.replaceChildren();
  const variable = state.collection?.variable;
  const names = [...new Set([...(variable ? [variable] : []), ...Object.keys(state.globalvars)])];
  for (const name of names) {
    const field = document.createElement('div');
    field.className = 'field';
    const id = `globalvar-${name}`;
    const label = document.createElement('label');
    label.htmlFor = id;
    label.textContent = name;
    const input = document.createElement('input');
    input.type = 'text';
    input.id = id;
    input.dataset.pointer = `/globalvars/${escapeSegment(name)}`;
    input.value = state.globalvars[name] ?? '';
    input.placeholder = 'key of values';
    input.addEventListener('input', () => {
      if (input.value === '') delete state.globalvars[name];
      else state.globalvars[name] = input.value;
      scheduleRender();
    });
    field.append(label, input);
    container.append(field);
  }
}

function valuesChanged() {
  $('values-json').value = JSON.stringify(state.values, null, 2);
  scheduleRender();
}

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

$('values-json').addEventListener('input', () => {
  const error = document.querySelector('[data-error-for="/values/json"]');
  let parsed;
  try {
    parsed = JSON.parse($('values-json').value);
  } catch (parseError) {
    error.textContent = `not valid JSON: ${parseError.message}`;
    error.hidden = false;
    return;
  }
  if (!isObject(parsed)) {
    error.textContent = 'values must be an object: { "<id>": { …input values… } }';
    error.hidden = false;
    return;
  }
  state.values = parsed;
  error.hidden = true;
  scheduleRender();
});

const jsonMode = () => document.querySelector('input[name="mode"]:checked').value === 'json';

for (const radio of document.querySelectorAll('input[name="mode"]')) {
  radio.addEventListener('change', () => {
    const json = radio.value === 'json' && radio.checked;
    $('values-json-wrap').hidden = !json;
    $('values-form').hidden = json;
    if (!json) buildForm();
  });
}
for (const radio of document.querySelectorAll('input[name="format"]')) radio.addEventListener('change', scheduleRender);

// ---- Render ------------------------------------------------------------------------------------------

function requestBody() {
  const facets = ['master', ...[...$('facet-list').querySelectorAll('input:checked')].map((box) => box.value).filter((facet) => facet !== 'master')];
  return { facets, values: state.values, globalvars: state.globalvars };
}

const format = () => document.querySelector('input[name="format"]:checked').value;
const execPath = () => `${state.collectionPath}/exec?format=${format()}`;

function scheduleRender() {
  clearTimeout(state.renderTimer);
  state.renderTimer = setTimeout(render, RENDER_DELAY_MS);
}

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
  for (const element of document.querySelectorAll('fieldset[aria-describedby^="error-"]')) element.removeAttribute('aria-describedby');
}

/** Puts an error next to the field its pointer names, or the nearest enclosing one; in JSON mode, under the editor. */
function showError(pointer, detail) {
  if (jsonMode() && pointer.startsWith('/values')) {
    const item = document.createElement('li');
    item.textContent = `${pointer}: ${detail}`;
    $('json-errors').append(item);
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
  const message = document.createElement('p');
  message.className = 'field-error';
  message.dataset.dynamic = 'true';
  message.id = `error-${Math.random().toString(36).slice(2)}`;
  message.textContent = missing ? `${missing}: ${detail}` : detail;
  if (!target) {
    const general = document.querySelector('[data-error-for="/values"]');
    general.textContent = `${pointer}: ${detail}`;
    general.hidden = false;
    return;
  }
  if (target.tagName === 'FIELDSET') {
    target.append(message);
    target.setAttribute('aria-describedby', message.id);
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
  try {
    response = await api(execPath(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  } catch (error) {
    if (seq === state.renderSeq) $('render-state').textContent = `request failed: ${error.message}`;
    return;
  }
  if (seq !== state.renderSeq) return; // a newer edit is already on its way
  clearErrors();
  const warnings = (response.headers.get('warning') ?? '').split(/, (?=\d{3} )/).filter(Boolean);
  $('warnings').replaceChildren(...warnings.map((warning) => Object.assign(document.createElement('li'), { textContent: warning.replace(/^299 - "(.*)"$/, '$1').replace(/\\"/g, '"') })));
  const text = await response.text();
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
  $('render-state').textContent = `${problem.title}: ${problem.detail}${state.manifest ? ' (the manifest shown is the last one that rendered)' : ''}`;
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
