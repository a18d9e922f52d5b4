/// <reference lib="dom" />
// Choosing what to render: a repository's API version, one of its collections, and an example of
// it to start from; each choice loads what the next one needs.

import { api, apiJson, failureText } from './api.js';
import { $, el } from './dom.js';
import type { CollectionDocument, CollectionList, ExampleRequest, RepositoryList, VendorList } from './discovery.js';
import { buildFacets, chooseFacets } from './facets.js';
import { scheduleRender } from './render.js';
import type { Schema } from './schema.js';
import { state } from './state.js';
import { buildForm, buildGlobalvars, showValuesJson } from './values-editor.js';

const select = (id: string) => $<HTMLSelectElement>(id);
const option = (value: string, text: string) => el('option', { value, textContent: text });

export async function loadRepositories(): Promise<void> {
  $('pick-hint').textContent = 'Loading the collections…';
  try {
    const { vendors } = await apiJson<VendorList>('/apis/repos');
    const repositories = select('repository');
    repositories.replaceChildren();
    for (const vendor of vendors) {
      for (const repository of (await apiJson<RepositoryList>(vendor.href)).repositories) {
        for (const version of repository.apiVersions)
          repositories.append(option(version.href, `${repository.name} ${version.apiVersion} (${version.latest})`));
      }
    }
    repositories.disabled = repositories.options.length === 0;
    $('pick-hint').textContent = repositories.options.length === 0 ? 'No repositories are served.' : '';
    await loadCollections();
  } catch (error) {
    $('pick-hint').textContent = failureText(error, 'Could not load the collections: ');
  }
}

export async function loadCollections(preferred = 'service'): Promise<void> {
  const href = select('repository').value;
  if (!href) return;
  const { collections } = await apiJson<CollectionList>(href);
  const chooser = select('collection');
  chooser.replaceChildren(...collections.map((collection) => option(collection.href, `${collection.name} (${collection.kind})`)));
  chooser.disabled = false;
  const wanted = collections.find((collection) => collection.name === preferred);
  if (wanted) chooser.value = wanted.href;
  await loadCollection();
}

/** Failures while choosing are said where the collections are chosen. */
export const reportLoadError = (error: unknown): void =>
  void ($('pick-hint').textContent = failureText(error, 'Could not load the collection: '));

export async function loadCollection(): Promise<void> {
  const href = select('collection').value;
  if (!href) return;
  const collection = await apiJson<CollectionDocument>(href);
  const schema = await apiJson<Schema>(collection.links.schema);
  state.collection = collection;
  state.collectionPath = href;
  state.schema = schema;
  $('pick-hint').textContent = '';
  $('collection-description').textContent = collection.description;
  buildFacets(collection, () => {
    buildForm();
    scheduleRender();
  });

  // The option names the example; its description, a sentence the select would cut off, is said under it.
  const examples = select('example');
  examples.replaceChildren(...collection.examples.map((example, index) => option(String(index), example.name)));
  examples.disabled = collection.examples.length === 0;
  const seed = collection.examples.findIndex((example) => example.name === 'seed');
  examples.value = String(Math.max(seed, 0));
  applyExample();

  $('schema').textContent = JSON.stringify(schema, null, 2);
  const types = await api(collection.links.types);
  $('types').textContent = types.ok ? await types.text() : `(not available: ${types.status})`;
}

/** Starts from the chosen example's request, or from an empty entry the collection's variable reads. */
export function applyExample(): void {
  const example = state.collection?.examples[Number(select('example').value)];
  $('example-description').textContent = example?.description ?? '';
  const variable = state.collection?.variable;
  const request: ExampleRequest = example?.request ?? { values: { app: {} }, globalvars: variable ? { [variable]: 'app' } : {} };
  state.values = structuredClone(request.values ?? {});
  state.globalvars = structuredClone(request.globalvars ?? {});
  state.shown.clear();
  chooseFacets(request.facets ?? []);
  buildForm();
  buildGlobalvars();
  showValuesJson();
  scheduleRender();
}
