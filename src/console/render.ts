/// <reference lib="dom" />
// The manifest: the request sent a moment after the last edit, its answer shown (or its errors,
// next to their fields), its warnings, and the curl | kubectl command that sends the same request.

import { warningTexts } from '../util/warning-header.js';
import { api, KEY_MESSAGE } from './api.js';
import { $, checkedValue, el } from './dom.js';
import type { ProblemAnswer } from './discovery.js';
import { clearErrors, showError } from './errors.js';
import { selectedFacets } from './facets.js';
import { state } from './state.js';

const RENDER_DELAY_MS = 250;

/** The request body the console sends; its shape is the exec request's (facets, values, globalvars). */
const requestBody = () => ({ facets: selectedFacets(), values: state.values, globalvars: state.globalvars });
const execPath = () => `${state.collectionPath}/exec?format=${checkedValue('format')}`;

/** Said after a failure while a manifest from earlier is still shown. */
export const lastManifestNote = (): string => (state.manifest ? ' (the manifest shown is the last one that rendered)' : '');

export function scheduleRender(): void {
  clearTimeout(state.renderTimer);
  state.renderTimer = setTimeout(render, RENDER_DELAY_MS);
}

/** Sends nothing for the last edits, and drops an answer still on its way: it is about older values. */
export function cancelRender(): void {
  clearTimeout(state.renderTimer);
  state.renderSeq++;
}

async function render(): Promise<void> {
  if (!state.collectionPath) return;
  const seq = ++state.renderSeq;
  const body = requestBody();
  $('command').textContent = curlCommand(body);
  $<HTMLButtonElement>('copy-command').disabled = false; // disabled until there is something to copy
  $('render-state').textContent = 'rendering…';
  let response: Response;
  let text: string;
  try {
    response = await api(execPath(), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    text = await response.text();
  } catch (error) {
    if (seq !== state.renderSeq) return;
    clearErrors();
    $('render-state').textContent = `The request failed: ${(error as Error).message}`;
    $('manifest').classList.add('stale');
    return;
  }
  if (seq !== state.renderSeq) return; // a newer edit is already on its way
  clearErrors();
  $('warnings').replaceChildren(...warningTexts(response.headers.get('warning')).map((warning) => el('li', { textContent: warning })));
  if (response.ok) {
    state.manifest = text;
    $('manifest').textContent = text;
    $<HTMLButtonElement>('copy-manifest').disabled = false;
    $('manifest').classList.remove('stale');
    $('render-state').textContent = `rendered by release ${response.headers.get('x-facetform-release')}`;
    return;
  }
  $('manifest').classList.add('stale'); // the last good manifest stays, dimmed
  let problem: ProblemAnswer;
  try {
    problem = JSON.parse(text);
  } catch {
    problem = { title: `HTTP ${response.status}`, detail: text };
  }
  $('render-state').textContent = response.status === 401 ? KEY_MESSAGE : `${problem.title}: ${problem.detail}${lastManifestNote()}`;
  for (const error of problem.errors ?? []) showError(error.pointer, error.detail);
}

function curlCommand(body: object): string {
  const json = JSON.stringify(body).replace(/'/g, `'\\''`);
  return `curl -s -X POST '${location.origin}${execPath()}' -H "X-APIKEY: $API_KEY" -H 'Content-Type: application/json' -d '${json}' | kubectl apply -f -`;
}
