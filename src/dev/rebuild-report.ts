/**
 * What `facetform dev` says of a rebuild: lint errors in full and warnings when they first appear,
 * then one line per repository: served (timed from the save to serving it), kept serving its last
 * good preview, or not served until its errors are fixed.
 */
import type { LintMessage } from '../lint/report.js';
import { PREVIEW_RELEASE_SUFFIX } from '../server/preview.js';
import { counted } from '../util/text.js';
import type { PreviewBuilder, RebuildResult } from './preview-builder.js';

/** Where dev's messages go: its own lines (`facetform dev: …`), and text as it is (lint messages). */
export interface DevOutput {
  say(text: string): void;
  err(text: string): void;
}

const lintLines = (messages: LintMessage[]) =>
  messages.flatMap((m) => [`${m.file}:${m.line}:${m.column} ${m.severity} ${m.message}`, ...(m.hint ? [`    hint: ${m.hint}`] : [])]);
const clock = (date: Date | undefined) => (date === undefined ? '' : date.toTimeString().slice(0, 8));

/**
 * `servedMs`: from the save to serving it, undefined for the first compile (no save started it);
 * `shown`: the repositories folder as the author knows it.
 */
export function reportRebuild(
  result: RebuildResult,
  builder: PreviewBuilder,
  output: DevOutput,
  shown: string,
  { servedMs, compileMs }: { servedMs: number | undefined; compileMs: number },
): void {
  for (const compiled of result.compiled) {
    const repository = builder.state.get(compiled.name)!;
    const shownMessages = compiled.messages.filter((message) => message.severity === 'error' || compiled.newMessages.includes(message));
    if (shownMessages.length > 0) output.err(lintLines(shownMessages).join('\n') + '\n');
    const counts = `${counted(compiled.errors, 'error')}, ${counted(compiled.warnings, 'warning')}`;
    if (compiled.served) {
      const release = repository.served!.bundle.repository.release + PREVIEW_RELEASE_SUFFIX;
      output.say(
        servedMs === undefined
          ? `${compiled.name} ${release}: ${counted(repository.served!.collections.size, 'collection')} (${counts})`
          : `rebuilt ${compiled.name} ${release} in ${Math.round(servedMs)} ms from the save to serving it (compile ${Math.round(compileMs)} ms; ${counts})`,
      );
    } else if (compiled.errors > 0 && repository.served !== undefined) {
      output.say(
        `${compiled.name}: ${counts}; its last good preview (compiled at ${clock(repository.servedAt)}) keeps serving until they are fixed`,
      );
    } else {
      output.say(`${compiled.name}: ${counts}; nothing of it is served until they are fixed`);
    }
  }
  for (const name of result.removed) output.say(`${name} is no longer in ${shown}; it is not served any more`);
}
