/**
 * A Secret as the API server judges it (core/validation ValidateSecret): keys, 1 MiB of data, and
 * the keys each built-in type requires. stringData is merged into data by the conversion to the
 * internal type, so its keys are judged as data keys.
 */
import { type FieldError, FieldPath, invalid, invalidEach, required, tooLong } from '../apimachinery/field-error.js';
import { type Fields, object, string, stringMap, has } from '../golang/values.js';
import type { KindRules } from '../registry/kind-rules.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../apimachinery/names.js';
import { validateCoreObjectMeta } from './object-meta.js';
import { MAX_DATA_SIZE } from './config-map.js';

const data = FieldPath.of('data');

function defaults(manifest: Fields): Fields {
  if (string(manifest.type) === '') manifest.type = 'Opaque';
  return manifest;
}

/** Go's path to a data key, pointing at stringData where the caller wrote the key there (the conversion merges it into data). */
const keyPath = (manifest: Fields, key: string): FieldPath =>
  has(manifest.stringData, key) ? data.key(key).locatedAt(FieldPath.of('stringData').key(key)) : data.key(key);

/** Go's path to a missing data key, pointing at stringData where the caller writes the keys there alone: that is where it goes. */
const missingKeyPath = (manifest: Fields, key: string): FieldPath =>
  manifest.data === undefined && manifest.stringData !== undefined
    ? data.key(key).locatedAt(FieldPath.of('stringData').key(key))
    : data.key(key);

/** The Secret's data as bytes: data decoded from base64, stringData over it. */
function secretData(manifest: Fields): Map<string, Buffer> {
  const merged = new Map<string, Buffer>();
  for (const [key, value] of stringMap(manifest.data)) merged.set(key, Buffer.from(value, 'base64'));
  for (const [key, value] of stringMap(manifest.stringData)) merged.set(key, Buffer.from(value, 'utf8'));
  return merged;
}

/** What Go's json.Unmarshal into a map says of these bytes, or undefined when it takes them. */
function notAJsonObject(bytes: Buffer): string | undefined {
  let parsed: unknown;
  const text = bytes.toString('utf8');
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    // Go's encoding/json says so of JSON cut short (V8 points at its end); others it names by the character.
    const at = /at position (\d+)/.exec(String(error));
    const cutShort = /end of JSON input/.test(String(error)) || (at !== null && Number(at[1]) >= text.trimEnd().length);
    return cutShort ? 'unexpected end of JSON input' : 'invalid JSON';
  }
  if (parsed === null || (typeof parsed === 'object' && !Array.isArray(parsed))) return undefined;
  const type = Array.isArray(parsed) ? 'array' : typeof parsed === 'boolean' ? 'bool' : typeof parsed;
  return `json: cannot unmarshal ${type} into Go value of type map[string]interface {}`;
}

function requiredKeys(manifest: Fields, values: Map<string, Buffer>): FieldError[] {
  const type = string(manifest.type);
  const need = (...keys: string[]) => keys.filter((key) => !values.has(key)).map((key) => required(missingKeyPath(manifest, key)));
  const jsonIn = (key: string): FieldError[] => {
    if (!values.has(key)) return [required(missingKeyPath(manifest, key))];
    const problem = notAJsonObject(values.get(key)!);
    return problem === undefined ? [] : [invalid(keyPath(manifest, key), '<secret contents redacted>', problem)];
  };
  switch (type) {
    case 'kubernetes.io/service-account-token': {
      const key = 'kubernetes.io/service-account.name';
      return string(object(object(manifest.metadata).annotations)[key]) === ''
        ? [required(FieldPath.of('metadata', 'annotations').key(key))]
        : [];
    }
    case 'kubernetes.io/dockercfg':
      return jsonIn('.dockercfg');
    case 'kubernetes.io/dockerconfigjson':
      return jsonIn('.dockerconfigjson');
    case 'kubernetes.io/basic-auth':
      return values.has('username') || values.has('password') ? [] : need('username', 'password');
    case 'kubernetes.io/ssh-auth':
      return (values.get('ssh-privatekey')?.length ?? 0) === 0 ? [required(keyPath(manifest, 'ssh-privatekey'))] : [];
    case 'kubernetes.io/tls':
      return need('tls.crt', 'tls.key');
    default:
      return [];
  }
}

function validate(manifest: Fields): FieldError[] {
  const errors = validateCoreObjectMeta(manifest.metadata, true, nameIsDNSSubdomain);
  const values = secretData(manifest);
  let size = 0;
  for (const [key, value] of values) {
    errors.push(...invalidEach(keyPath(manifest, key), key, isConfigMapKey(key)));
    size += value.length;
  }
  if (size > MAX_DATA_SIZE) errors.push(tooLong(data, MAX_DATA_SIZE));
  return [...errors, ...requiredKeys(manifest, values)];
}

export const secretRules: KindRules = { namespaced: true, defaults, validate };
