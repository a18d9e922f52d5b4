/// <reference lib="dom" />
// The server's API, with the key the user entered (X-APIKEY), and what the page says of that key.

import { $ } from './dom.js';
import type { ProblemAnswer } from './discovery.js';
import { state } from './state.js';

export const KEY_MESSAGE =
  'The server refused the API key: it is missing or wrong. Enter the key the server printed at start ' +
  '(or one of its API_KEYS or API_KEYS_FILE) in the API key field at the top and press Use key.';

/** A refused request: its status and, when the server sent one, its problem+json. */
export class ApiError extends Error {
  constructor(
    path: string,
    readonly status: number,
    problem: ProblemAnswer | undefined,
  ) {
    super(status === 401 ? KEY_MESSAGE : problem?.detail ? `${problem.title}: ${problem.detail}` : `${path}: HTTP ${status}`);
  }
}

/** What a failure says: the key message when the key was refused, else `prefix` and the error's message. */
export const failureText = (error: unknown, prefix: string): string =>
  error instanceof ApiError && error.status === 401 ? KEY_MESSAGE : `${prefix}${error instanceof Error ? error.message : String(error)}`;

export function showKeyState(text: string, ok: boolean): void {
  $('key-state').textContent = text;
  $('key-state').classList.toggle('set', ok);
}

export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (state.key) headers.set('X-APIKEY', state.key);
  const response = await fetch(path, { ...init, headers });
  if (response.status === 401) showKeyState(state.key ? 'rejected' : 'not set', false);
  return response;
}

export async function apiJson<T>(path: string): Promise<T> {
  const response = await api(path);
  if (!response.ok) throw new ApiError(path, response.status, await response.json().catch(() => undefined));
  return response.json() as Promise<T>;
}
