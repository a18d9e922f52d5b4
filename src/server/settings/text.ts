/** The settings in words, from their declarations: the Markdown table of the docs, and the list of `facetform serve --help`. */
import { SETTING } from './all.js';
import type { Setting } from './setting.js';

const settings: readonly Setting<unknown>[] = Object.values(SETTING);

const defaultOf = (setting: Setting<unknown>): string =>
  setting.shownDefault ?? (setting.default === undefined ? 'none' : `\`${setting.default}\``);

/** Every setting as a Markdown table (variable, default, values, meaning), for the docs. */
export function settingsTable(): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const rows = settings.map(
    (setting) => `| \`${setting.name}\` | ${cell(defaultOf(setting))} | ${cell(setting.values)} | ${cell(setting.description)} |`,
  );
  return ['| variable | default | values | meaning |', '|---|---|---|---|', ...rows].join('\n') + '\n';
}

/** `text` in lines of at most `width` characters after `indent`. */
function wrapped(text: string, indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, indent + line];
}

/** Every setting as `facetform serve --help` lists it: its name, default and values, then its meaning, in plain text. */
export function settingsHelp(width = 100): string {
  const plain = (text: string) => text.replaceAll('`', '');
  const lines = ['Settings, from the environment only (a bad value stops the start, naming the setting):'];
  for (const setting of settings) {
    lines.push(...wrapped(plain(`${setting.name} (default ${defaultOf(setting)}): ${setting.values}`), '  ', width));
    lines.push(...wrapped(plain(setting.description), '      ', width));
  }
  return lines.join('\n') + '\n';
}
