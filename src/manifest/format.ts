/** Manifest serialisation (CONTRACT §6): JSON or one YAML document, byte-identical for equal input. */
import { toKubectlYaml } from './kubectl-yaml.js';

export const FORMATS = ['json', 'yaml'] as const;
export type Format = (typeof FORMATS)[number];

export const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
};

export function isFormat(value: unknown): value is Format {
  return typeof value === 'string' && (FORMATS as readonly string[]).includes(value);
}

export function formatManifest(manifest: unknown, format: Format, options: { pretty?: boolean } = {}): string {
  if (format === 'yaml') {
    // Written for kubectl's decoder (go-yaml v2), which reads it back to exactly the JSON answer.
    return toKubectlYaml(manifest);
  }
  return options.pretty ? JSON.stringify(manifest, null, 2) + '\n' : JSON.stringify(manifest);
}

/** Several manifests: a v1 List in JSON, a stream of YAML documents; kubectl apply takes both. */
export function formatManifestList(manifests: unknown[], format: Format): string {
  if (format === 'yaml') return manifests.map((manifest) => `---\n${formatManifest(manifest, 'yaml')}`).join('');
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items: manifests });
}
