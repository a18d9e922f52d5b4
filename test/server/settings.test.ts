/**
 * Every setting is declared once (src/server/settings/): the reader, `facetform serve --help` and the
 * docs' table all come from those declarations, so none of them can name a setting the others lack.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig, SETTING, SETTINGS } from '../../src/server/config.js';
import type { Setting } from '../../src/server/settings/setting.js';
import { settingsTable } from '../../src/server/settings/text.js';
import { runCli } from '../helpers/build.js';

const declared: Setting<unknown>[] = Object.values(SETTING);

describe('the settings', () => {
  it('are each declared once, and the reader knows exactly those', () => {
    expect(new Set(declared.map((setting) => setting.name)).size).toBe(declared.length);
    expect(SETTINGS).toEqual(declared.map((setting) => setting.name).sort());
    for (const [key, setting] of Object.entries(SETTING)) expect(setting.name).toBe(key);
  });

  it('have a default their own parser takes', () => {
    for (const setting of declared) if (setting.default !== undefined) expect(() => setting.parse(setting.default)).not.toThrow();
    expect(readConfig({}).port).toBe(8790);
  });

  it('are refused in the words of the values that help and docs give', () => {
    expect(() => readConfig({ MAX_ITEMS: '3' })).toThrow(new ConfigError('MAX_ITEMS', '"3" is not a whole number from 16 to 100000'));
    expect(SETTING.MAX_ITEMS.values).toBe('a whole number from 16 to 100000');
  });

  it('make a Markdown table for the docs, a row each', () => {
    const table = settingsTable();
    const rows = table.trimEnd().split('\n');
    expect(rows[0]).toBe('| variable | default | values | meaning |');
    expect(rows).toHaveLength(declared.length + 2);
    expect(table).toContain(
      '| `PORT` | `8790` | a whole number from 0 to 65535 | TCP port (`0` picks a free one). Not 8080: kubectl without a kubeconfig talks to localhost:8080 |',
    );
    expect(table).toContain('| `API_KEYS` | none |');
    expect(table).toContain('| `MAX_ANSWER_BYTES` | `4194304` (4 MiB) |');
  });

  it('are listed by facetform serve --help, each with its default and values', async () => {
    const run = await runCli(['serve', '--help']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    for (const setting of declared) expect(run.stdout).toContain(`  ${setting.name} (default `);
    expect(run.stdout).toContain('  LOG_LEVEL (default info): fatal, error, warn, info, debug, trace, silent\n');
    expect(run.stdout).toContain('  BUNDLES_DIR (default dist/ of the project): a folder\n');
  });
});
