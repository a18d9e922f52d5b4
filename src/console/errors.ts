/// <reference lib="dom" />
// The server's errors about a request, each shown next to the field its pointer names.

import { $, all, el } from './dom.js';
import { jsonMode } from './state.js';

/** Removes every error the server reported for an earlier request. */
export function clearErrors(): void {
  $('json-errors').replaceChildren();
  $('json-errors').hidden = true;
  for (const element of all('.field-error')) {
    if (element.dataset.errorFor === '/values/json') continue;
    if (element.dataset.dynamic) element.remove();
    else element.hidden = true;
  }
  for (const element of all('[aria-invalid="true"]')) {
    element.removeAttribute('aria-invalid');
    element.removeAttribute('aria-errormessage');
  }
  for (const element of all('fieldset[data-error-id]')) {
    element.setAttribute('aria-describedby', element.dataset.describedBy ?? '');
    if (!element.dataset.describedBy) element.removeAttribute('aria-describedby');
    delete element.dataset.errorId;
  }
}

const errorFor = (pointer: string) => document.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(pointer)}"]`);

/** Puts an error next to the field its pointer names, or the nearest enclosing one; in JSON mode, under the editor. */
export function showError(pointer: string, detail: string): void {
  if (jsonMode() && pointer.startsWith('/values')) {
    $('json-errors').append(el('li', { textContent: `${pointer}: ${detail}` }));
    $('json-errors').hidden = false;
    return;
  }
  const fixed = errorFor(pointer.startsWith('/facets') ? '/facets' : pointer);
  if (fixed && !fixed.dataset.dynamic) {
    fixed.textContent = pointer.startsWith('/facets') ? `${pointer}: ${detail}` : detail;
    fixed.hidden = false;
    return;
  }
  let segments = pointer.split('/');
  let target: HTMLElement | null = null;
  let missing = '';
  while (segments.length > 1 && !(target = document.querySelector<HTMLElement>(`[data-pointer="${CSS.escape(segments.join('/'))}"]`))) {
    missing = `${segments.at(-1)}${missing ? '/' + missing : ''}`;
    segments = segments.slice(0, -1);
  }
  if (!target) {
    const general = errorFor('/values')!;
    general.textContent = `${pointer}: ${detail}`;
    general.hidden = false;
    return;
  }
  const message = el('p', {
    className: 'field-error',
    id: `error-${Math.random().toString(36).slice(2)}`,
    dataset: { dynamic: 'true' },
    textContent: missing ? `${missing}: ${detail}` : detail,
  });
  if (target.tagName === 'FIELDSET') {
    target.append(message);
    if (!target.dataset.errorId) target.dataset.describedBy = target.getAttribute('aria-describedby') ?? '';
    target.dataset.errorId = message.id;
    target.setAttribute('aria-describedby', `${target.dataset.describedBy} ${message.id}`.trim());
  } else {
    target.setAttribute('aria-invalid', 'true');
    target.setAttribute('aria-errormessage', message.id);
    target.closest('.field')!.append(message);
  }
}
