/**
 * apimachinery's name and value rules (util/validation): DNS labels and subdomains, qualified
 * names, label values, config keys, port names and numbers. Each answers Go's messages, and
 * lengths are counted in UTF-8 bytes, as Go's len() counts them.
 */
const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Valid values are the rule, so each check returns this one empty list for them. */
const VALID: string[] = Object.freeze([]) as unknown as string[];

export const maxLenError = (length: number): string => `must be no more than ${length} characters`;
export const inclusiveRangeError = (lo: number, hi: number): string => `must be between ${lo} and ${hi}, inclusive`;
export const EMPTY_ERROR = 'must be non-empty';

function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) return `${message} (regex used for validation is '${format}')`;
  return `${message} (e.g. ${examples.map((example) => `'${example}', `).join(' or ')}regex used for validation is '${format}')`;
}

const anchored = (format: string): RegExp => new RegExp(`^(?:${format})$`);

const QUALIFIED_NAME_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const QUALIFIED_NAME_MESSAGE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME = anchored(QUALIFIED_NAME_FORMAT);

const DNS1123_LABEL_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = anchored(DNS1123_LABEL_FORMAT);
const DNS1123_SUBDOMAIN_FORMAT = `${DNS1123_LABEL_FORMAT}(\\.${DNS1123_LABEL_FORMAT})*`;
const DNS1123_SUBDOMAIN = anchored(DNS1123_SUBDOMAIN_FORMAT);
const DNS1035_LABEL_FORMAT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1035_LABEL = anchored(DNS1035_LABEL_FORMAT);
const WILDCARD_SUBDOMAIN_FORMAT = `\\*\\.${DNS1123_SUBDOMAIN_FORMAT}`;
const WILDCARD_SUBDOMAIN = anchored(WILDCARD_SUBDOMAIN_FORMAT);
const LABEL_VALUE_FORMAT = `(${QUALIFIED_NAME_FORMAT})?`;
const LABEL_VALUE = anchored(LABEL_VALUE_FORMAT);
const CONFIG_KEY_FORMAT = '[-._a-zA-Z0-9]+';
const CONFIG_KEY = anchored(CONFIG_KEY_FORMAT);

export function isDNS1123Label(value: string): string[] {
  if (value.length <= 63 && DNS1123_LABEL.test(value)) return VALID;
  const errors: string[] = [];
  if (utf8Length(value) > 63) errors.push(maxLenError(63));
  if (!DNS1123_LABEL.test(value)) {
    if (DNS1123_SUBDOMAIN.test(value)) errors.push('must not contain dots');
    else
      errors.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          DNS1123_LABEL_FORMAT,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errors;
}

export function isDNS1123Subdomain(value: string): string[] {
  if (value.length <= 253 && DNS1123_SUBDOMAIN.test(value)) return VALID;
  const errors: string[] = [];
  if (utf8Length(value) > 253) errors.push(maxLenError(253));
  if (!DNS1123_SUBDOMAIN.test(value))
    errors.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        DNS1123_SUBDOMAIN_FORMAT,
        'example.com',
      ),
    );
  return errors;
}

export function isDNS1035Label(value: string): string[] {
  if (value.length <= 63 && DNS1035_LABEL.test(value)) return VALID;
  const errors: string[] = [];
  if (utf8Length(value) > 63) errors.push(maxLenError(63));
  if (!DNS1035_LABEL.test(value))
    errors.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        DNS1035_LABEL_FORMAT,
        'my-name',
        'abc-123',
      ),
    );
  return errors;
}

export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errors: string[] = [];
  if (utf8Length(value) > 253) errors.push(maxLenError(253));
  if (!WILDCARD_SUBDOMAIN.test(value))
    errors.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD_SUBDOMAIN_FORMAT,
        '*.example.com',
      ),
    );
  return errors;
}

/** A qualified name: an optional DNS subdomain prefix and '/', then a name of at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  if (value.length <= 63 && QUALIFIED_NAME.test(value)) return VALID;
  const errors: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errors.push(`prefix part ${EMPTY_ERROR}`);
    else for (const message of isDNS1123Subdomain(prefix)) errors.push(`prefix part ${message}`);
  } else {
    return [
      `a qualified name ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, 'MyName', 'my.name', '123-abc')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  if (name.length === 0) errors.push(`name part ${EMPTY_ERROR}`);
  else if (utf8Length(name) > 63) errors.push(`name part ${maxLenError(63)}`);
  if (!QUALIFIED_NAME.test(name))
    errors.push(`name part ${regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, 'MyName', 'my.name', '123-abc')}`);
  return errors;
}

export function isValidLabelValue(value: string): string[] {
  if (value.length <= 63 && LABEL_VALUE.test(value)) return VALID;
  const errors: string[] = [];
  if (utf8Length(value) > 63) errors.push(maxLenError(63));
  if (!LABEL_VALUE.test(value))
    errors.push(
      regexError(
        "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
        LABEL_VALUE_FORMAT,
        'MyValue',
        'my_value',
        '12345',
      ),
    );
  return errors;
}

/** '.', '..' and a leading '..' would escape a mounted volume's folder. */
export function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  return value.startsWith('..') ? ["must not start with '..'"] : [];
}

export function isConfigMapKey(value: string): string[] {
  if (value.length <= 253 && CONFIG_KEY.test(value) && !value.startsWith('.')) return VALID;
  const errors: string[] = [];
  if (utf8Length(value) > 253) errors.push(maxLenError(253));
  if (!CONFIG_KEY.test(value))
    errors.push(
      regexError(
        "a valid config key must consist of alphanumeric characters, '-', '_' or '.'",
        CONFIG_KEY_FORMAT,
        'key.name',
        'KEY_NAME',
        'key-name',
      ),
    );
  return [...errors, ...hasChDirPrefix(value)];
}

export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? VALID : [inclusiveRangeError(1, 65535)];
}

/** core's supportedPortProtocols, sorted as Go's sets.List lists them in its messages. */
export const PORT_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

export function isValidPortName(port: string): string[] {
  const errors: string[] = [];
  if (utf8Length(port) > 15) errors.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errors.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errors.push('must not contain consecutive hyphens');
  if (port.startsWith('-') || port.endsWith('-')) errors.push('must not begin or end with a hyphen');
  return errors;
}

/** A name rule of ValidateNameFunc's shape: `prefix` is true for generateName, which may end in '-'. */
export type NameRule = (name: string, prefix: boolean) => string[];

/** A generateName's trailing dash is followed by generated characters, so it is judged as if it were a letter. */
const maskTrailingDash = (name: string): string => (name.length > 1 && name.endsWith('-') ? `${name.slice(0, -2)}a` : name);

export const nameIsDNSSubdomain: NameRule = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
export const nameIsDNSLabel: NameRule = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);
export const nameIsDNS1035Label: NameRule = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);
