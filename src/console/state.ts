/// <reference lib="dom" />
// What the console holds between events, and what the page's toggles say.

import type { JsonObject } from '../util/json.js';
import { checkedValue } from './dom.js';
import type { CollectionDocument } from './discovery.js';
import type { Schema } from './schema.js';

export const KEY_STORAGE = 'facetform.apiKey';
/** Sent on window by dev-reload.ts when the server asks for no key (`facetform dev` on loopback). */
export const KEYLESS_EVENT = 'facetform:keyless';

export const state = {
  key: sessionStorage.getItem(KEY_STORAGE) ?? '',
  /** The server asks for no key: none is entered, and none is needed. */
  keyless: false,
  collection: undefined as CollectionDocument | undefined,
  collectionPath: '',
  /** The collection's input JSON Schema. */
  schema: undefined as Schema | undefined,
  values: {} as JsonObject,
  globalvars: {} as Record<string, string>,
  /** Pointers of members added to the form but not given a value yet. */
  shown: new Set<string>(),
  renderSeq: 0,
  renderTimer: undefined as ReturnType<typeof setTimeout> | undefined,
  manifest: '',
};

/** Whether the values are edited as JSON text rather than in the form. */
export const jsonMode = (): boolean => checkedValue('mode') === 'json';
