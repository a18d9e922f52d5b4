/** The static part of x-kubernetes-validations (rule, message, reason, fieldPath); compiling the rules is cel-rules' work. */
import { isPlainObject } from '../util/json.js';
import { fieldPathExists, parseFieldPath } from './field-path.js';
import type { Add, SchemaNode as Node } from './structural-report.js';

const REASONS = ['FieldValueInvalid', 'FieldValueForbidden', 'FieldValueRequired', 'FieldValueDuplicate'];

export function checkValidations(node: Node, path: Array<string | number>, add: Add): void {
  const rules = node['x-kubernetes-validations'];
  if (rules === undefined) return;
  if (!Array.isArray(rules)) return add([...path, 'x-kubernetes-validations'], 'must be a list of rules', 'write a list: - rule: "…"');
  rules.forEach((rule, index) => {
    const at = [...path, 'x-kubernetes-validations', index];
    if (!isPlainObject(rule)) return add(at, 'must be an object with a rule', 'write { rule: "…", message: "…" }');
    const text = typeof rule.rule === 'string' ? rule.rule.trim() : '';
    const message = typeof rule.message === 'string' ? rule.message.trim() : undefined;
    if (text === '')
      add([...at, 'rule'], 'rule is not specified', 'write a CEL expression that is true for a valid value, e.g. "self.min <= self.max"');
    else if (rule.message !== undefined && message === '')
      add([...at, 'message'], 'message must be non-empty if specified', 'say what is wrong, or remove message');
    else if (message !== undefined && /[\r\n]/.test(message))
      add([...at, 'message'], 'message must not contain line breaks', 'write the message on one line');
    else if (/[\r\n]/.test(text) && message === undefined)
      add([...at, 'message'], 'message must be specified if rule contains line breaks', 'add a one-line message');
    if (rule.messageExpression !== undefined && (typeof rule.messageExpression !== 'string' || rule.messageExpression.trim() === ''))
      add(
        [...at, 'messageExpression'],
        'messageExpression must be non-empty if specified',
        'write a CEL expression that gives a string, or remove it',
      );
    if (rule.reason !== undefined && !REASONS.includes(String(rule.reason)))
      add(
        [...at, 'reason'],
        `Unsupported value: ${JSON.stringify(rule.reason)}: supported values: ${REASONS.map((reason) => `"${reason}"`).join(', ')}`,
        'use one of the four reasons, or remove it',
      );
    if (rule.fieldPath !== undefined) {
      const fieldPath = typeof rule.fieldPath === 'string' ? rule.fieldPath : '';
      const segments = parseFieldPath(fieldPath);
      if (fieldPath.trim() === '')
        add([...at, 'fieldPath'], 'fieldPath must be non-empty if specified', 'write a path such as .spec.replicas, or remove it');
      else if (/[\r\n]/.test(fieldPath)) add([...at, 'fieldPath'], 'fieldPath must not contain line breaks', 'write the path on one line');
      else if (segments === undefined || !fieldPathExists(node, segments))
        add(
          [...at, 'fieldPath'],
          `fieldPath ${JSON.stringify(fieldPath)} must be a valid path`,
          "name a member below this node: .member, or ['member.with.dots']; array indexes are not allowed",
        );
    }
  });
}
