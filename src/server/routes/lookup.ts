/** Finding the bundle or collection a route names, or a 404 that names what exists. */
import type { Context } from 'koa';
import type { LoadedBundle, LoadedCollection } from '../../bundle/load.js';
import type { Lookup } from '../../bundle/registry.js';
import { HttpProblem, notFound } from '../problem.js';
import type { ServerState } from '../state.js';

const WHAT: Record<Exclude<Lookup, { found: unknown }>['missing'], string> = {
  vendor: 'vendor',
  repository: 'repository',
  apiVersion: 'API version',
  release: 'release',
  collection: 'collection',
};

/** One query parameter; repeating it is a 400. */
export function queryParam(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name];
  if (Array.isArray(value)) throw new HttpProblem('bad-request', `query parameter ${name} is given ${value.length} times; give it once`);
  return value;
}

export function findBundle(state: ServerState, ctx: Context): LoadedBundle {
  const { vendor, repository, apiVersion } = ctx.params as Record<string, string>;
  const found = state.registry.bundle(vendor!, repository!, apiVersion!, queryParam(ctx, 'release'));
  if ('missing' in found) throw notFound(WHAT[found.missing], found.name, found.known);
  return found;
}

export function findCollection(state: ServerState, ctx: Context): LoadedCollection {
  const bundle = findBundle(state, ctx);
  const name = (ctx.params as Record<string, string>).collection!;
  const found = bundle.collections.get(name);
  if (found === undefined) throw notFound('collection', name, [...bundle.collections.keys()].sort());
  return found;
}

/** Headers that say which release answered. */
export function setBundleHeaders(ctx: Context, bundle: LoadedBundle['bundle']): void {
  ctx.res.setHeader('X-Facetform-Release', bundle.repository.release);
  ctx.res.setHeader('X-Facetform-Bundle-Digest', bundle.digest);
}
