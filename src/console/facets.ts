/// <reference lib="dom" />
// The facets panel: a checkbox per facet (master always on, as the server renders it), the sections
// each adds, and what the chosen facets' sections read.

import { compareFacets, isMasterFacet, MASTER_FACET } from '../collection/facet.js';
import { $, all, el } from './dom.js';
import type { CollectionDocument, SectionSummary } from './discovery.js';
import { state } from './state.js';

const boxes = (which = '') => all<HTMLInputElement>(`input[type="checkbox"]${which}`, $('facet-list'));

/** Each section a facet adds, with its description and the inputs it reads, as a list. */
function sectionList(id: string, sections: readonly SectionSummary[]): HTMLUListElement {
  return el(
    'ul',
    { id, className: 'facet-sections' },
    ...sections.map((section) =>
      el(
        'li',
        {},
        el('span', { className: 'section-name', textContent: section.name }),
        `: ${section.description}`,
        section.inputs?.length ? el('span', { className: 'inputs', textContent: ` (reads ${section.inputs.join(', ')})` }) : undefined,
      ),
    ),
  );
}

/**
 * One checkbox per facet, and under it each section it adds, with that section's description, as a
 * list. A facet of several sections (`addon:spec` of all of them) shows their names, its list behind
 * a click: in full, the same descriptions stood under every facet and made the page thousands of
 * pixels tall. `onChange` after a tick.
 */
export function buildFacets(collection: CollectionDocument, onChange: () => void): void {
  const list = $('facet-list');
  list.replaceChildren();
  for (const facet of collection.facets.slice().sort(compareFacets)) {
    const id = `facet-${facet.replace(/[^a-z0-9-]/g, '-')}`;
    const master = isMasterFacet(facet); // master sections are always rendered
    const box = el('input', { type: 'checkbox', id, value: facet, checked: master, disabled: master });
    box.addEventListener('change', onChange);
    const sections = collection.sections.filter((section) => section.facets.includes(facet));
    const note = sectionList(`${id}-note`, sections);
    box.setAttribute('aria-describedby', note.id);
    const label = el('label', { htmlFor: id, textContent: master ? `${MASTER_FACET} (always on)` : facet });
    const names = sections.map((section) => section.name).join(', ');
    const shown =
      sections.length > 1
        ? el('details', { className: 'facet-sections-more' }, el('summary', {}, `${sections.length} sections: ${names}`), note)
        : note;
    list.append(el('div', { className: 'facet' }, box, label, shown));
  }
  $<HTMLFieldSetElement>('facets').disabled = false;
}

/** The facets a request names: master, and the ticked ones. */
export const selectedFacets = (): string[] => [
  MASTER_FACET,
  ...boxes(':checked')
    .map((box) => box.value)
    .filter((facet) => !isMasterFacet(facet)),
];

/** Ticks the facets an example names (master stays on). */
export function chooseFacets(facets: readonly string[]): void {
  const chosen = new Set(facets);
  for (const box of boxes()) if (!box.disabled) box.checked = chosen.has(box.value);
}

/**
 * The input paths the selected facets' sections read, as the collection document lists them
 * (`inputs` of each section); undefined when the server does not say, and the form shows the
 * whole schema.
 */
export function selectedInputs(): string[] | undefined {
  const sections = state.collection?.sections ?? [];
  if (!sections.every((section) => Array.isArray(section.inputs))) return undefined;
  const facets = new Set(selectedFacets());
  const read = sections.filter((section) => section.facets.some((facet) => facets.has(facet))).flatMap((section) => section.inputs!);
  return [...new Set(read)].sort();
}
