/**
 * kubeconform's schemas, written from the same Kubernetes types facetform checks with: the bench has
 * no network for kubeconform's own download. Laid out as kubeconform looks them up, e.g.
 * service-v1.json, ingress-networking-v1.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KubeTypes } from '../../src/kubernetes/kube-types.js';

/** kubeconform's file name for a kind: `{{ .ResourceKind }}{{ .KindSuffix }}`, the group's first label only. */
const fileName = (apiVersion: string, kind: string) => {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  return `${[kind, group!.split('.')[0], version].filter(Boolean).join('-').toLowerCase()}.json`;
};

/** Writes the kinds' schemas into `folder`; the -schema-location that reads them. */
export function writeKubeconformSchemas(folder: string, kinds: Array<{ apiVersion: string; kind: string }>): string {
  const types = KubeTypes.shared().add(kinds);
  mkdirSync(folder, { recursive: true });
  for (const { apiVersion, kind } of kinds) {
    const schema = types.kindSchema(apiVersion, kind);
    if (schema === undefined) throw new Error(`no Kubernetes type for ${apiVersion} ${kind}`);
    const definitions = structuredClone(schema.definitions);
    // As kubeconform's own -strict schemas are made (openapi2jsonschema --strict): no member the kind does not declare.
    const strict = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const member = node as Record<string, unknown>;
      if (member.properties !== undefined && member.additionalProperties === undefined) member.additionalProperties = false;
      Object.values(member).forEach(strict);
    };
    strict(definitions);
    writeFileSync(path.join(folder, fileName(apiVersion, kind)), JSON.stringify({ $ref: `#/definitions/${kind}`, definitions }));
  }
  return `${folder}/{{ .ResourceKind }}{{ .KindSuffix }}.json`;
}
