/**
 * The lint collector: every rule adds messages here, each pointing at a file, line and column with
 * a hint on how to fix it. Printed as `file:line:col severity message`, the form editors and CI
 * annotate.
 */
import { MountedFile } from '../collection/mount.js';
import type { Position, SourceFile } from '../repository/source-file.js';

export type Severity = 'error' | 'warning';

export interface LintMessage extends Position {
  file: string;
  severity: Severity;
  message: string;
  hint?: string | undefined;
}

export type Where = readonly (string | number)[] | Position;

export class LintReport {
  readonly messages: LintMessage[] = [];

  add(severity: Severity, file: SourceFile, where: Where, message: string, hint?: string): void {
    const position = Array.isArray(where) ? file.locate(where as (string | number)[]) : (where as Position);
    // A shared section's problem may exist in one collection that mounts it alone: say which.
    const said = file instanceof MountedFile ? `${message} (${file.note})` : message;
    this.messages.push({ file: file.path, line: position.line, column: position.column, severity, message: said, hint });
  }

  error(file: SourceFile, where: Where, message: string, hint?: string): void {
    this.add('error', file, where, message, hint);
  }

  warning(file: SourceFile, where: Where, message: string, hint?: string): void {
    this.add('warning', file, where, message, hint);
  }

  get errorCount(): number {
    return this.messages.filter((message) => message.severity === 'error').length;
  }

  get warningCount(): number {
    return this.messages.length - this.errorCount;
  }

  /** Errors of one file, e.g. to know whether it can be compiled. */
  hasErrorsIn(path: string): boolean {
    return this.messages.some((message) => message.severity === 'error' && message.file === path);
  }

  sorted(): LintMessage[] {
    return [...this.messages].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  }

  format(): string {
    const lines = this.sorted().flatMap((m) => [
      `${m.file}:${m.line}:${m.column} ${m.severity} ${m.message}`,
      ...(m.hint ? [`    hint: ${m.hint}`] : []),
    ]);
    const summary = `${this.errorCount} error${this.errorCount === 1 ? '' : 's'}, ${this.warningCount} warning${this.warningCount === 1 ? '' : 's'}`;
    return [...lines, summary].join('\n') + '\n';
  }
}
