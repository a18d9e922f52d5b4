/** A ConfigMap as the API server judges it (core/validation ValidateConfigMap): keys, no key twice, 1 MiB of data. */
import { type FieldError, FieldPath, invalid, invalidEach, tooLong } from '../apimachinery/field-error.js';
import { type Fields, object, stringMap } from '../golang/values.js';
import type { KindRules } from '../registry/kind-rules.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../apimachinery/names.js';
import { validateCoreObjectMeta } from './object-meta.js';

/** core.MaxSecretSize, which a ConfigMap shares. */
export const MAX_DATA_SIZE = 1024 * 1024;

function validate(manifest: Fields): FieldError[] {
  const errors = validateCoreObjectMeta(manifest.metadata, true, nameIsDNSSubdomain);
  const binaryData = object(manifest.binaryData);
  let size = 0;
  for (const [key, value] of stringMap(manifest.data)) {
    const path = FieldPath.of('data').key(key);
    errors.push(...invalidEach(path, key, isConfigMapKey(key)));
    if (Object.hasOwn(binaryData, key)) errors.push(invalid(path, key, 'duplicate of key present in binaryData'));
    size += Buffer.byteLength(value);
  }
  for (const [key, value] of stringMap(binaryData)) {
    errors.push(...invalidEach(FieldPath.of('binaryData').key(key), key, isConfigMapKey(key)));
    size += Buffer.from(value, 'base64').length;
  }
  // Go reports the total at the object's root; the caller's member to shorten is the data.
  if (size > MAX_DATA_SIZE) errors.push(tooLong(FieldPath.of('').locatedAt(FieldPath.of('data')), MAX_DATA_SIZE));
  return errors;
}

export const configMapRules: KindRules = { namespaced: true, validate };
