/** What the CLI says about itself: one command's part of the usage text. */

/**
 * The usage lines of one command: each synopsis line of it (`  facetform <command> …`) with the
 * lines indented under it, then those notes closing the whole text that speak of a word it uses
 * (`FILE is JSON or YAML …` for the commands that read a FILE).
 */
export function commandUsage(usage: string, command: string): string {
  const lines: string[] = [];
  const notes: string[] = [];
  let inCommand = false;
  for (const line of usage.split('\n').slice(1)) {
    const synopsis = /^\s+facetform (\S+)/.exec(line);
    if (synopsis !== null) inCommand = synopsis[1] === command;
    else if (!/^\s/.test(line)) {
      inCommand = false;
      notes.push(line);
      continue;
    }
    if (inCommand) lines.push(line);
  }
  const text = lines.join('\n');
  const relevant = notes.filter((note) => text.includes(note.split(' ')[0]!));
  return `Usage:\n${[...lines, ...relevant].join('\n')}\n`;
}
