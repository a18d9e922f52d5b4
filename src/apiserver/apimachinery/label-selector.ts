/** metav1's label selector rules (apimachinery pkg/apis/meta/v1/validation ValidateLabelSelector). */
import { type FieldError, type FieldPath, forbidden, invalid, invalidEach, required } from './field-error.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { validateLabels } from './object-meta.js';
import { type Fields, list, object, string, strings } from '../golang/values.js';

/** metav1 ValidateLabelSelector, with invalid values and unknown operators refused. */
export function validateLabelSelector(selector: Fields, path: FieldPath): FieldError[] {
  const errors = [...validateLabels(selector.matchLabels, path.child('matchLabels'))];
  list(selector.matchExpressions).forEach((entry, index) => {
    const requirement = object(entry);
    const requirementPath = path.child('matchExpressions').index(index);
    const operator = string(requirement.operator);
    const values = strings(requirement.values);
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0)
        errors.push(required(requirementPath.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0)
        errors.push(forbidden(requirementPath.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
    } else errors.push(invalid(requirementPath.child('operator'), operator, 'not a valid selector operator'));
    const key = string(requirement.key);
    errors.push(...invalidEach(requirementPath.child('key'), key, isQualifiedName(key)));
    values.forEach((value, i) => errors.push(...invalidEach(requirementPath.child('values').index(i), value, isValidLabelValue(value))));
  });
  return errors;
}
