/// <reference lib="dom" />
// facetform console under `facetform dev`: a banner that says the page shows an unreleased preview of
// the working tree, and a refresh after every rebuild, from the server's events (GET /dev/events).
// Under `facetform serve` it does nothing: answers there carry no X-Facetform-Preview header.
//
// After a rebuild it first asks the console: a cancelable `facetform:preview-rebuilt` event on
// window (detail: the status below). A console that refreshes itself calls preventDefault(). If
// none does, this module re-renders the manifest (a change event on the checked format), reloads
// the collection when what discovery says of it changed (a change event on #collection), and
// reloads the page when collections came or went or dev restarted. It talks to the console through
// the page only (events, controls), so the console works without it.

import { EVENTS_PATH, PREVIEW_HEADER, type PreviewStatus } from '../server/preview-status.js';
import { KEYLESS_EVENT } from './state.js';

const $ = (id: string) => document.getElementById(id);
let banner: HTMLElement | undefined;
let last: PreviewStatus | undefined; // the status last seen

function show(note: string, status: PreviewStatus): void {
  if (banner === undefined) {
    banner = document.createElement('div');
    banner.id = 'dev-preview';
    banner.setAttribute('role', 'status');
    banner.setAttribute('aria-live', 'polite');
    // The console's CSP allows no inline style attributes; properties set from script are fine.
    Object.assign(banner.style, {
      padding: '0.5rem 1rem',
      background: '#fff4d6',
      borderBottom: '1px solid #e0c36b',
      color: '#5c4300',
      fontSize: '0.9rem',
    });
    document.body.prepend(banner);
  }
  const failing = status.repositories.filter((repository) => repository.errors > 0);
  const lines = [
    `Preview: the ${note}, served by facetform dev. Not a release: facetform build makes releases. It refreshes on every save.`,
  ];
  for (const repository of failing) {
    const errors = `${repository.errors} lint error${repository.errors === 1 ? '' : 's'}`;
    lines.push(
      repository.release === undefined
        ? `${repository.name}: ${errors}; not served until they are fixed (see the terminal).`
        : `${repository.name}: ${errors}; the last good preview (${repository.release}) is shown (see the terminal).`,
    );
  }
  banner.replaceChildren(
    ...lines.map((line, index) => Object.assign(document.createElement(index === 0 ? 'strong' : 'div'), { textContent: line })),
  );
  banner.dataset.generation = `${status.session}/${status.generation}`;
  banner.dataset.failing = String(failing.length);
}

/** The repository and collection #collection shows, from its discovery href (…/<repository>/<apiVersion>/resources/collections/<collection>). */
function shownCollection(): { repository: string; collection: string } | undefined {
  const href = ($('collection') as HTMLSelectElement | null)?.value ?? '';
  const match = /\/apis\/repos\/[^/]+\/([^/]+)\/[^/]+\/resources\/collections\/([^/?]+)/.exec(href);
  return match === null ? undefined : { repository: decodeURIComponent(match[1]!), collection: decodeURIComponent(match[2]!) };
}

type Shown = NonNullable<ReturnType<typeof shownCollection>>;
const shapeOf = (status: PreviewStatus, shown: Shown) =>
  status.repositories.find((repository) => repository.name === shown.repository)?.collections[shown.collection];
const namesOf = (status: PreviewStatus) =>
  JSON.stringify(status.repositories.map((repository) => [repository.name, Object.keys(repository.collections).sort()]));

function refresh(before: PreviewStatus, after: PreviewStatus): void {
  if (!window.dispatchEvent(new CustomEvent('facetform:preview-rebuilt', { cancelable: true, detail: after }))) return;
  if (before.session !== after.session || namesOf(before) !== namesOf(after)) return location.reload();
  const shown = shownCollection();
  if (shown === undefined) return;
  if (shapeOf(before, shown) !== shapeOf(after, shown)) {
    $('collection')!.dispatchEvent(new Event('change'));
    return;
  }
  const format = document.querySelector('input[name="format"]:checked');
  if (format !== null) format.dispatchEvent(new Event('change'));
  else location.reload();
}

/** With no key needed, the console is told so, and loads at once without one. */
function sayKeyless(status: PreviewStatus): void {
  if (status.keyless) window.dispatchEvent(new Event(KEYLESS_EVENT));
}

async function start(): Promise<void> {
  let response: Response;
  try {
    // This module's own URL: every answer of `facetform dev` carries the header.
    response = await fetch(import.meta.url, { method: 'HEAD', cache: 'no-store' });
  } catch {
    return;
  }
  const note = response.headers.get(PREVIEW_HEADER);
  if (!note) return;
  const events = new EventSource(EVENTS_PATH);
  events.addEventListener('status', (event) => {
    const status = JSON.parse(event.data) as PreviewStatus;
    show(note, status);
    if (last === undefined) sayKeyless(status);
    else if (last.session !== status.session || last.generation !== status.generation) refresh(last, status);
    last = status;
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
