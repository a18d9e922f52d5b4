/// <reference lib="dom" />
// facetform console: pick a collection and facets, edit values, see the manifest as you type.
// TypeScript compiled by tsc with the server (src/console → lib/console) and served as the ES
// modules tsc writes, with the shared modules they import: no bundler, no CDN, nothing from elsewhere.
// This module wires the page's controls to the modules that do the work.

import { showKeyState } from './api.js';
import { applyExample, loadCollection, loadCollections, loadRepositories, reportLoadError } from './collections.js';
import { $, $input, all } from './dom.js';
import { scheduleRender } from './render.js';
import { KEY_STORAGE, KEYLESS_EVENT, state } from './state.js';
import { modeChanged, valuesJsonEdited } from './values-editor.js';

/** Says whether a key is set (or not needed), and loads the collections when the server can be asked. */
function useKey(): void {
  showKeyState(state.key ? 'set' : state.keyless ? 'not needed' : 'not set', Boolean(state.key) || state.keyless);
  if (state.key || state.keyless) loadRepositories();
  else $('pick-hint').textContent = 'Enter the API key to load the collections.';
}

$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  state.key = $input('api-key').value.trim();
  if (state.key) sessionStorage.setItem(KEY_STORAGE, state.key);
  else sessionStorage.removeItem(KEY_STORAGE);
  $input('api-key').value = '';
  useKey();
});
// No key entered is shown as none, not as a made-up one that the page would call "set".
window.addEventListener(KEYLESS_EVENT, () => {
  state.keyless = true;
  if (!state.key) useKey();
});

$('repository').addEventListener('change', () => loadCollections().catch(reportLoadError));
$('collection').addEventListener('change', () => loadCollection().catch(reportLoadError));
$('example').addEventListener('change', applyExample);

$('values-json').addEventListener('input', valuesJsonEdited);
for (const radio of all('input[name="mode"]')) radio.addEventListener('change', modeChanged);
for (const radio of all('input[name="format"]')) radio.addEventListener('change', scheduleRender);

// ---- Copy --------------------------------------------------------------------------------------------

async function copy(text: string, what: string): Promise<void> {
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
$('copy-command').addEventListener('click', () => copy($('command').textContent ?? '', 'command'));

// ---- Start -------------------------------------------------------------------------------------------

if (state.key) useKey();
