/** A finding as one line for a terminal or a CI log: severity, file, request, field (KRM field path), what is wrong. */
import { fieldPathOf } from './field-path.js';
import type { Finding } from './render-requests.js';

export function findingText(finding: Finding): string {
  const request = finding.request === undefined ? '' : ` ${finding.request.kind} ${finding.request.name || '(no name)'}:`;
  const field = finding.pointer === '' ? '' : ` ${fieldPathOf(finding.pointer, finding.document)}:`;
  return `${finding.severity}: ${finding.file}:${request}${field} ${finding.detail}\n`;
}
