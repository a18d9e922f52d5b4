/**
 * What a setting of the server is: one declaration of its variable, default, the values it takes,
 * what it means, and how its text is read. The reader (config.ts), `facetform serve --help` and the
 * docs' table (text.ts) all read the declarations (declared.ts), and a bad value's message is made
 * from the same bounds the help shows.
 *
 * Our own small declaration rather than envalid or env-schema: their messages are their own (ajv's,
 * or a reporter's list), empty and unset mean different things for different settings here (an
 * empty HOST is refused, an empty BUNDLES_DIR is unset), and the messages that users and tests know
 * must stay word for word.
 */

export interface Setting<T> {
  /** The environment variable. */
  name: string;
  /** The text read when the variable is unset; none when unset is a value of its own (off, or made at start). */
  default?: string;
  /** How help and docs show the default where the text above does not say it. */
  shownDefault?: string;
  /** The values it takes, in words. */
  values: string;
  /** What it means. */
  description: string;
  /** The value of the variable's text (the default when unset); a bad one throws a SettingValueError saying why. */
  parse(text: string | undefined): T;
}

/** Why a setting's text is refused, without the setting's name (ConfigError adds it). */
export class SettingValueError extends Error {}

/** A whole number from `min` to `max`. */
export function wholeNumber(min: number, max: number): Pick<Setting<number>, 'values' | 'parse'> {
  return {
    values: `a whole number from ${min} to ${max}`,
    parse: (text = '') => {
      if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max)
        throw new SettingValueError(`"${text}" is not a whole number from ${min} to ${max}`);
      return Number(text);
    },
  };
}

/** Set and not empty, else unset: a variable that a template left empty is no value. */
export const nonEmpty = (text: string | undefined): string | undefined => text || undefined;

/** Comma-separated entries, trimmed. */
export const entries = (text: string): string[] => text.split(',').map((entry) => entry.trim());

/** What `read` gives; what it throws becomes the setting's own message. */
export function rethrown<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new SettingValueError((error as Error).message);
  }
}

export class ConfigError extends Error {
  constructor(setting: string, message: string) {
    super(`${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** The value of `setting` for its variable's text (undefined: unset, so its default); a bad one is a ConfigError naming it. */
export function valueOf<T>(setting: Setting<T>, text: string | undefined): T {
  try {
    return setting.parse(text ?? setting.default);
  } catch (error) {
    if (error instanceof SettingValueError) throw new ConfigError(setting.name, error.message);
    throw error;
  }
}
