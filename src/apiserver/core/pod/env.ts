/** A container's environment (core/validation ValidateEnv, validateEnvVarValueFrom and the key selectors). */
import { type FieldError, type FieldPath, NONE, invalid, invalidEach, required } from '../../apimachinery/field-error.js';
import { isConfigMapKey, nameIsDNSSubdomain } from '../../apimachinery/names.js';
import { type Fields, isSet, object, string } from '../../golang/values.js';

/**
 * IsRelaxedEnvVarName: 1.33 runs it, the RelaxedEnvironmentVariableValidation gate being on by
 * default, so any printable ASCII but '=' is a name.
 */
export function isRelaxedEnvVarName(name: string): string[] {
  const errors: string[] = [];
  if (name.length === 0) errors.push('environment variable name must be non-empty');
  if (!/^[\x20-\x3c\x3e-\x7e]*$/.test(name))
    errors.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
  return errors;
}

/** validateConfigMapKeySelector and validateSecretKeySelector, which are the same rule. */
function validateKeySelector(selector: Fields, path: FieldPath): FieldError[] {
  const name = string(selector.name);
  const errors = invalidEach(path.child('name'), name, nameIsDNSSubdomain(name, false)).slice();
  const key = string(selector.key);
  if (key === '') errors.push(required(path.child('key')));
  else errors.push(...invalidEach(path.child('key'), key, isConfigMapKey(key)));
  return errors;
}

/**
 * validateEnvVarValueFrom: exactly one source, and none beside a value. The fieldRef and
 * resourceFieldRef selectors are counted as sources but their contents are not judged yet
 * (validateObjectFieldSelector, validateContainerResourceFieldSelector are not ported).
 */
export function validateEnvVarValueFrom(env: Fields, path: FieldPath): FieldError[] {
  if (!isSet(env.valueFrom)) return NONE;
  const valueFrom = object(env.valueFrom);
  const errors: FieldError[] = [];
  let sources = 0;
  if (isSet(valueFrom.fieldRef)) sources++;
  if (isSet(valueFrom.resourceFieldRef)) sources++;
  for (const selector of ['configMapKeyRef', 'secretKeyRef'])
    if (isSet(valueFrom[selector])) {
      sources++;
      errors.push(...validateKeySelector(object(valueFrom[selector]), path.child(selector)));
    }
  if (sources === 0)
    errors.push(invalid(path, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
  else if (string(env.value) !== '') errors.push(invalid(path, '', 'may not be specified when `value` is not empty'));
  else if (sources > 1) errors.push(invalid(path, '', 'may not have more than one field specified at a time'));
  return errors;
}

/** ValidateEnv. */
export function validateEnv(vars: unknown[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  vars.forEach((entry, i) => {
    const env = object(entry);
    const itemPath = path.index(i);
    const name = string(env.name);
    if (name === '') errors.push(required(itemPath.child('name')));
    else errors.push(...invalidEach(itemPath.child('name'), name, isRelaxedEnvVarName(name)));
    errors.push(...validateEnvVarValueFrom(env, itemPath.child('valueFrom')));
  });
  return errors;
}
