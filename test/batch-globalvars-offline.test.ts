/**
 * A batch resource's own globalvars offline, through the real bin: `facetform render --batch` and a
 * BatchRequest file rendered by `facetform generate` give what the exec API answers to the same body.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { execAnswer, facetform } from './helpers/gitops.js';
import { collectionOfKind, ROOT, tempDir } from './helpers/repos.js';
import { startTestServer, type TestServer } from './helpers/server.js';

const service = collectionOfKind('Service');
const seedId = service.seed.globalvars![service.variable]!;
const seedEntry = service.seed.values[seedId];
const api = { ...seedEntry, metadata: { ...seedEntry.metadata, name: 'api' } };
/** Two Services of one collection, each reading its own entry through its own globalvars. */
const body = {
  resources: ['api', seedId].map((id) => ({
    repository: service.repository,
    collection: service.collection,
    facets: service.seed.facets,
    globalvars: { [service.variable]: id },
  })),
  values: { [seedId]: seedEntry, api },
};
const batchRequest = { apiVersion: 'facetform.dev/v1alpha1', kind: 'BatchRequest', metadata: { name: 'two' }, spec: body };

let server: TestServer;
let work: string;
beforeAll(async () => {
  server = await startTestServer();
  work = tempDir();
});
afterAll(() => server.close());

describe("a batch resource's own globalvars, offline", () => {
  it('renders with render --batch and generate as the exec API does', async () => {
    const answer = JSON.parse(await execAnswer(server, batchRequest, 'json')).items;
    expect(answer.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(['api', seedEntry.metadata.name]);

    writeFileSync(path.join(work, 'batch.json'), JSON.stringify(body));
    const rendered = await facetform(['render', '--batch', path.join(work, 'batch.json'), '--bundles', path.join(ROOT, 'dist')]);
    expect(rendered).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(rendered.stdout).items).toEqual(answer);

    writeFileSync(path.join(work, 'two.yaml'), stringify(batchRequest));
    const generator = { apiVersion: 'facetform.dev/v1alpha1', kind: 'FacetformGenerator', metadata: { name: 'g' } };
    writeFileSync(path.join(work, 'generator.yaml'), stringify({ ...generator, bundles: path.join(ROOT, 'dist'), requests: ['two.yaml'] }));
    const generated = await facetform(['generate', 'generator.yaml'], { cwd: work });
    expect(generated).toMatchObject({ code: 0, stderr: '' });
    expect(parseAllDocuments(generated.stdout).map((document) => document.toJS())).toEqual(answer);
  });
});
