/**
 * In-process render of the seed's Service example, side by side with the same template in json-e,
 * in handlebars (a string template, then JSON.parse), and a hand-written function (the floor).
 * Every candidate gets the same request body and does the same job: read values[globalvars[VAR]]
 * and build the manifest.
 */
import Handlebars from 'handlebars';
import jsone from 'json-e';
import type { LoadedCollection } from '../../src/bundle/load.js';
import { createErrors } from '../../src/apiserver/registry/create.js';
import { builtInRules } from '../../src/apiserver/kinds.js';
import { execute } from '../../src/exec/execute.js';
import { compareInProcess } from './measure.js';

interface SeedRequest {
  facets: string[];
  values: Record<string, { metadata: unknown; spec: { selector: unknown; ports: unknown } }>;
  globalvars: Record<string, string>;
}

export interface RenderFigures {
  nsPerRender: Record<string, number>;
  nsPerValidatedRender: Record<string, number>;
}

export function renderBench(service: LoadedCollection, options: { rounds: number; roundMs: number }): RenderFigures {
  const request = service.collection.examples.find((example) => example.name === 'seed')!.request as unknown as SeedRequest;
  const expected = JSON.stringify(service.plan.render(request));

  const jsonETemplate = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { $eval: 'values[globalvars.__SVC_ID__].metadata' },
    spec: {
      selector: { $eval: 'values[globalvars.__SVC_ID__].spec.selector' },
      ports: { $eval: 'values[globalvars.__SVC_ID__].spec.ports' },
    },
  };
  const handlebars = Handlebars.create();
  handlebars.registerHelper('json', (value: unknown) => new Handlebars.SafeString(JSON.stringify(value)));
  const handlebarsTemplate = handlebars.compile(
    '{"apiVersion":"v1","kind":"Service","metadata":{{json metadata}},"spec":{"selector":{{json spec.selector}},"ports":{{json spec.ports}} } }',
    { noEscape: true },
  );
  const floor = (body: SeedRequest) => {
    const input = body.values[body.globalvars.__SVC_ID__!]!;
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: input.metadata,
      spec: { selector: input.spec.selector, ports: input.spec.ports },
    };
  };

  const candidates = [
    { name: 'facetform', run: () => service.plan.render(request) },
    { name: 'json-e', run: () => jsone(jsonETemplate, request as never) },
    { name: 'handlebars', run: () => JSON.parse(handlebarsTemplate(request.values[request.globalvars.__SVC_ID__!])) },
    { name: 'floor', run: () => floor(request) },
  ];
  // All four must build the same manifest, or the comparison means nothing.
  for (const candidate of candidates) {
    if (JSON.stringify(candidate.run()) !== expected) throw new Error(`${candidate.name} renders a different manifest`);
  }
  const nsPerRender = compareInProcess(candidates, options);

  // The whole in-process path a request runs, and the same without the check against the kind's
  // own schema, so that the check's cost is seen on its own.
  const unchecked = { ...service, manifestCheck: undefined };
  const rendered = service.plan.render(request);
  const apiServerRules = builtInRules(String(rendered.apiVersion), String(rendered.kind))!;
  if (createErrors(apiServerRules, rendered).length > 0) throw new Error('the API server would refuse the seed Service');
  const validated = [
    // Included in facetform's figure; measured alone so that its share is seen.
    { name: 'api server rules', run: () => createErrors(apiServerRules, rendered) },
    { name: 'facetform', run: () => JSON.stringify(execute(service, request).manifest) },
    { name: 'without kubernetes check', run: () => JSON.stringify(execute(unchecked, request).manifest) },
    { name: 'floor', run: () => JSON.stringify(floor(request)) },
  ];
  const nsPerValidatedRender = compareInProcess(validated, options);
  return { nsPerRender, nsPerValidatedRender };
}
