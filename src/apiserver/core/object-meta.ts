/**
 * core/validation's ObjectMeta rules, which every built-in kind's validation calls: apimachinery's
 * (../apimachinery/object-meta.ts) and core's own check of finalizer names.
 */
import { type FieldError, FieldPath, invalid } from '../apimachinery/field-error.js';
import type { NameRule } from '../apimachinery/names.js';
import { validateObjectMeta } from '../apimachinery/object-meta.js';
import { object, strings } from '../golang/values.js';

const STANDARD_FINALIZERS = ['kubernetes', 'orphan', 'foregroundDeletion'];

/**
 * core/validation's ValidateObjectMeta, which every built-in kind's validation calls: the rules
 * above, and a finalizer without a '/' must be one of Kubernetes' own.
 */
export function validateCoreObjectMeta(metadata: unknown, namespaced: boolean, nameRule: NameRule): FieldError[] {
  const errors = validateObjectMeta(metadata, namespaced, nameRule);
  if (object(metadata).finalizers === undefined) return errors;
  strings(object(metadata).finalizers).forEach((name, index) => {
    if (!name.includes('/') && !STANDARD_FINALIZERS.includes(name))
      errors.push(
        invalid(
          FieldPath.of('metadata', 'finalizers').index(index),
          name,
          'name is neither a standard finalizer name nor is it fully qualified',
        ),
      );
  });
  return errors;
}
