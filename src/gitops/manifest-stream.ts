/**
 * Request files rendered to a stream of YAML documents, for the tools that read manifests from a
 * command's standard output (kustomize's exec plugins, Argo CD's config management plugins): each
 * manifest exactly as the exec API answers it with format=yaml, after `---`; every problem a line
 * for standard error; nothing on standard output when any request fails.
 */
import { formatManifestList } from '../manifest/format.js';
import { findingText } from './finding-text.js';
import { errorOfFile, renderRequests } from './render-requests.js';
import type { Renderer } from './renderer.js';
import type { FileProblem, RequestSource } from './request-source.js';

export interface Generated {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export async function generateManifests(read: { sources: RequestSource[]; problems: FileProblem[] }, renderer: Renderer, options: { strict: boolean }): Promise<Generated> {
  const outcome = await renderRequests(read.sources, renderer, options);
  const findings = [...read.problems.map(errorOfFile), ...outcome.findings];
  const stderr = findings.map(findingText).join('');
  if (findings.some((finding) => finding.severity === 'error')) return { stdout: '', stderr, exitCode: 1 };
  return { stdout: formatManifestList(outcome.rendered.flatMap((each) => each.manifests), 'yaml'), stderr, exitCode: 0 };
}
