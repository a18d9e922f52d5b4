/**
 * Manifest serialisation (CONTRACT §6): JSON or one YAML document, byte-identical for equal input.
 * An answer may be given limits (CONTRACT §7): it is written manifest by manifest and given up on as
 * soon as it passes its bytes, so an answer too large is never built whole.
 */
import { toKubectlYaml, YamlTooLong } from './kubectl-yaml.js';

export const FORMATS = ['json', 'yaml'] as const;
export type Format = (typeof FORMATS)[number];

export const MEDIA_TYPES: Record<Format, string> = {
  json: 'application/json',
  yaml: 'application/yaml',
};

export function isFormat(value: unknown): value is Format {
  return typeof value === 'string' && (FORMATS as readonly string[]).includes(value);
}

/**
 * The API server refuses to decode a write whose body passes 3 MiB (3,145,728 bytes, twice etcd's
 * default 1.5 MiB request limit, fixed in kube-apiserver): an object whose JSON is larger can never
 * be created or applied. Objects between 1.5 and 3 MiB may still fit, as etcd stores built-in kinds
 * in a more compact encoding and its limit is a setting.
 */
export const KUBERNETES_OBJECT_LIMIT_BYTES = 3 * 1024 * 1024;

const MiB = 1024 * 1024;
/** Bytes as a reader takes them in: 512 bytes, 942 KiB, 4 MiB, 45.8 MiB. */
export function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < MiB) return `${Math.round(bytes / 1024)} KiB`;
  return `${Number.isInteger(bytes / MiB) ? bytes / MiB : (bytes / MiB).toFixed(1)} MiB`;
}

/** Why a manifest of `bytes` (as JSON) could never be applied. */
export function objectTooLargeDetail(manifest: unknown, bytes: number, limit = KUBERNETES_OBJECT_LIMIT_BYTES): string {
  const kind = (manifest as { kind?: unknown }).kind;
  return (
    `the ${typeof kind === 'string' ? kind : 'object'} it renders ` +
    `takes ${bytesText(bytes)} as JSON; the Kubernetes API server ` +
    `refuses an object over ${bytesText(limit)}, so it could never ` +
    `be applied`
  );
}

/**
 * The manifests larger than the API server accepts, by index, with why: for callers that write
 * manifests without an answer's limits (the CLI, the gitops tools), as the exec API refuses them.
 */
export function oversizedObjects(manifests: unknown[]): Array<{ index: number; detail: string }> {
  return manifests.flatMap((manifest, index) => {
    const bytes = Buffer.byteLength(JSON.stringify(manifest));
    return bytes > KUBERNETES_OBJECT_LIMIT_BYTES ? [{ index, detail: objectTooLargeDetail(manifest, bytes) }] : [];
  });
}

export interface AnswerLimits {
  /** Bytes of the whole answer. */
  maxBytes: number;
  /** Bytes of each object as JSON, as kubectl sends it to the API server. */
  maxObjectBytes: number;
}

const UNLIMITED: AnswerLimits = { maxBytes: Infinity, maxObjectBytes: Infinity };

/** Manifest `index` takes the answer past `limit` bytes; the manifests before it took `before`. */
export class AnswerTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly index: number,
    readonly before: number,
  ) {
    super(`manifest ${index} takes the answer past ${limit} bytes`);
    this.name = 'AnswerTooLarge';
  }
}

/** Manifest `index` takes `bytes` as JSON, more than Kubernetes accepts for one object. */
export class ObjectTooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly index: number,
    readonly bytes: number,
  ) {
    super(`manifest ${index} takes ${bytes} bytes as JSON; Kubernetes accepts at most ${limit}`);
    this.name = 'ObjectTooLarge';
  }
}

export function formatManifest(manifest: unknown, format: Format, options: { pretty?: boolean; limits?: AnswerLimits } = {}): string {
  if (options.pretty) return format === 'yaml' ? toKubectlYaml(manifest) : JSON.stringify(manifest, null, 2) + '\n';
  return writeManifests([manifest], format, false, options.limits ?? UNLIMITED);
}

/** Several manifests: a v1 List in JSON, a stream of YAML documents; kubectl apply takes both. */
export function formatManifestList(manifests: unknown[], format: Format, limits = UNLIMITED): string {
  return writeManifests(manifests, format, true, limits);
}

const LIST_START = '{"apiVersion":"v1","kind":"List","items":[';
const LIST_END = ']}';

function writeManifests(manifests: unknown[], format: Format, list: boolean, limits: AnswerLimits): string {
  const json = format === 'json';
  const [start, end] = list && json ? [LIST_START, LIST_END] : ['', ''];
  // What precedes each manifest: a comma between List items, a document start before each YAML document.
  const before = (index: number) => (!list ? '' : json ? (index > 0 ? ',' : '') : '---\n');
  const parts: string[] = [start];
  let bytes = start.length + end.length;
  manifests.forEach((manifest, index) => {
    const lead = before(index);
    const written = bytes;
    bytes += lead.length;
    let text: string;
    try {
      // YAML is written for kubectl's decoder (go-yaml v2), which reads it back to exactly the JSON answer.
      // A character takes at least a byte, so YAML longer than the bytes left is too large.
      text = json ? JSON.stringify(manifest) : toKubectlYaml(manifest, limits.maxBytes - bytes);
    } catch (error) {
      if (error instanceof YamlTooLong) throw new AnswerTooLarge(limits.maxBytes, index, written);
      throw error;
    }
    const textBytes = Buffer.byteLength(text);
    if (limits.maxObjectBytes !== Infinity) {
      const objectBytes = json ? textBytes : Buffer.byteLength(JSON.stringify(manifest));
      if (objectBytes > limits.maxObjectBytes) throw new ObjectTooLarge(limits.maxObjectBytes, index, objectBytes);
    }
    bytes += textBytes;
    if (bytes > limits.maxBytes) throw new AnswerTooLarge(limits.maxBytes, index, written);
    parts.push(lead, text);
  });
  parts.push(end);
  return parts.join('');
}
