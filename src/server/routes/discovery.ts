/**
 * Discovery: what the server serves, for callers and the console. Every answer is built from the
 * loaded bundles; nothing here renders.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type Router from '@koa/router';
import type { ParsedSection } from '../../collection/section.js';
import { compareReleases } from '../../release/release.js';
import { queryParameters } from '../pipeline/query-parameters.js';
import { HttpProblem, notFound } from '../problem.js';
import type { ServerState } from '../state.js';
import { queryOf, type Route, ROUTES } from './route-table.js';
import { findBundle, findCollection, setBundleHeaders } from './lookup.js';

/** A discovery route, registered with the check of the query parameters it takes. */
const at = (route: Route) => [route.path, queryParameters(queryOf(route))] as const;

export function discoveryRoutes(router: Router, state: ServerState): void {
  router.get(...at(ROUTES.vendors), (ctx) => {
    ctx.body = { vendors: state.registry.vendors().map((vendor) => ({ name: vendor, href: `/apis/repos/${vendor}` })) };
  });

  router.get(...at(ROUTES.vendor), (ctx) => {
    const vendor = ctx.params.vendor!;
    const registry = state.registry;
    const repositories = registry.repositories(vendor);
    if (repositories === undefined) throw notFound('vendor', vendor, registry.vendors());
    ctx.body = {
      vendor,
      repositories: [...repositories.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, versions]) => ({
          name,
          description: registry.description(versions),
          apiVersions: [...versions.entries()].map(([apiVersion, bundles]) => ({
            apiVersion,
            latest: registry.latest(bundles)!.bundle.repository.release,
            releases: bundles.map((loaded) => loaded.bundle.repository.release).sort(compareReleases),
            href: `/apis/repos/${vendor}/${name}/${apiVersion}/resources/collections`,
          })),
        })),
    };
  });

  router.get(...at(ROUTES.repository), (ctx) => {
    const loaded = findBundle(state, ctx);
    const { repository, digest } = loaded.bundle;
    setBundleHeaders(ctx, loaded.bundle);
    ctx.body = {
      repository: repository.name,
      vendor: repository.vendor,
      apiVersion: repository.apiVersion,
      release: repository.release,
      description: repository.description,
      digest,
      collections: loaded.bundle.collections.map((collection) => ({
        name: collection.name,
        kind: collection.kind,
        apiVersion: collection.apiVersion,
        variable: collection.variable,
        description: collection.description,
        facets: collection.facets,
        href: `${ctx.path}/${collection.name}`,
      })),
    };
  });

  router.get(...at(ROUTES.collection), (ctx) => {
    const { collection, bundle, plan } = findCollection(state, ctx);
    setBundleHeaders(ctx, bundle);
    // The plan parsed the sections when the bundle loaded; discovery reads them from there.
    const parsed = new Map(plan.sections.map((section) => [section.name, section]));
    ctx.body = {
      name: collection.name,
      repository: bundle.repository.name,
      release: bundle.repository.release,
      variable: collection.variable,
      kind: collection.kind,
      apiVersion: collection.apiVersion,
      description: collection.description,
      facets: collection.facets,
      sections: collection.sections.map((section) => ({
        name: section.name,
        facets: section.facets,
        description: section.description,
        inputs: inputsOf(parsed.get(section.name)!, collection.variable),
      })),
      examples: collection.examples.map((example) => ({ name: example.name, description: example.description, request: example.request })),
      links: { exec: `${ctx.path}/exec`, schema: `${ctx.path}/schema`, types: `${ctx.path}/types` },
    };
  });

  router.get(...at(ROUTES.types), async (ctx) => {
    const found = findCollection(state, ctx);
    setBundleHeaders(ctx, found.bundle);
    const file = path.join(path.dirname(found.bundleFile), 'types', `${found.collection.name}.d.ts`);
    try {
      ctx.body = await readFile(file, 'utf8');
    } catch {
      throw new HttpProblem('not-found', `no TypeScript declaration was built for ${found.collection.name}`);
    }
    ctx.set('Content-Type', 'text/plain; charset=utf-8');
  });

  router.get(...at(ROUTES.schema), (ctx) => {
    const { collection, bundle } = findCollection(state, ctx);
    setBundleHeaders(ctx, bundle);
    ctx.type = 'application/schema+json';
    ctx.body = JSON.stringify(collection.schema);
  });
}

/**
 * The input paths a section reads (its placeholders' references to the collection's variable, as
 * `spec.ports`: the placeholder path without the variable; both sides of `??`), sorted: the
 * console shows these as the fields of the facets that select the section.
 */
function inputsOf(section: ParsedSection, variable: string): string[] {
  const known = INPUTS.get(section);
  if (known !== undefined) return known;
  const paths = section.sites.flatMap((site) =>
    site.expressions.flatMap((expression) =>
      expression.references.filter((reference) => reference.variable === variable).map((reference) => reference.path.join('.')),
    ),
  );
  const inputs = [...new Set(paths)].sort();
  INPUTS.set(section, inputs);
  return inputs;
}

const INPUTS = new WeakMap<ParsedSection, string[]>();
