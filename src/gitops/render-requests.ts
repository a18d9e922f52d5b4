/**
 * Request files to manifests: each request checked against the request file schema, then rendered;
 * every problem a finding with the file, the request and a pointer into it. One module runs this
 * for the KRM function, the kustomize plugin and the Argo CD plugin alike.
 */
import type { Problem } from '../request/problems.js';
import type { RequestFile } from '../request-file/request-file.js';
import { isPlainObject, type JsonObject } from '../util/json.js';
import { checkRequestDocument } from './request-check.js';
import type { FileProblem, RequestSource } from './request-source.js';
import type { Renderer } from './renderer.js';

export interface Finding extends Problem {
  severity: 'error' | 'warning';
  file: string;
  /** The request at fault, when the file held one that could be read. */
  request?: { apiVersion: string; kind: string; name: string };
  /** The document the pointer points into, to tell array indexes from member names. */
  document?: unknown;
}

export interface RenderedRequest {
  source: RequestSource;
  manifests: JsonObject[];
}

export interface RenderOutcome {
  rendered: RenderedRequest[];
  findings: Finding[];
}

function requestRef(document: Record<string, unknown>): Finding['request'] {
  const metadata = isPlainObject(document.metadata) ? document.metadata : {};
  return { apiVersion: String(document.apiVersion), kind: String(document.kind), name: typeof metadata.name === 'string' ? metadata.name : '' };
}

export const errorOfFile = (problem: FileProblem): Finding => ({ severity: 'error', ...problem });

/** Renders every source, in order; a request with problems renders nothing, the others render all the same. */
export async function renderRequests(sources: RequestSource[], renderer: Renderer, options: { strict: boolean }): Promise<RenderOutcome> {
  const rendered: RenderedRequest[] = [];
  const findings: Finding[] = [];
  for (const source of sources) {
    const at = { file: source.file, request: requestRef(source.document), document: source.document };
    const checked = checkRequestDocument(source.document as Parameters<typeof checkRequestDocument>[0]);
    if ('problems' in checked) {
      for (const problem of checked.problems) findings.push({ severity: 'error', ...at, ...problem });
      continue;
    }
    const result = await renderer.render(checked.request as RequestFile, options);
    for (const problem of result.problems) findings.push({ severity: 'error', ...at, ...problem });
    if (result.more > 0) findings.push({ severity: 'error', ...at, pointer: '/spec', detail: `and ${result.more} more problems: fix the ones above and render again` });
    for (const warning of result.warnings) findings.push({ severity: 'warning', ...at, ...warning });
    if (result.problems.length === 0) rendered.push({ source, manifests: result.manifests });
  }
  return { rendered, findings };
}
