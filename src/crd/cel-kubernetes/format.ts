/**
 * Kubernetes' CEL format library (k8s.io/apiserver/pkg/cel/library/format.go): format.named(name)
 * (an optional), format.<name>() and validate(), which gives optional.none() for a valid string
 * and else the optional list of what is wrong, in Go's words.
 */
import { goParseRequestURI } from '../../apiserver/golang/url.js';
import {
  isQualifiedName,
  isValidLabelValue,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from '../../apiserver/apimachinery/names.js';
import type { Library } from './opaque.js';
import { optionals } from './optional.js';

/** time.Parse("2006-01-02"): four digits, a month 01-12, a day its month has. */
function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return false;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** strfmt.IsDateTime: a date, `t` (any case), then a time matched loosely (its `.` any character). */
function isDateTime(text: string): boolean {
  if (text.length < 4) return false;
  const parts = text.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const match = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u.exec(parts[1]!);
  return match !== null && match[1]! <= '23' && match[2]! <= '59' && match[3]! <= '59';
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** govalidator's base64: whole groups of four, padding only at the end, never empty. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/;

const check = (valid: (text: string) => boolean, error: string) => (text: string) => (valid(text) ? [] : [error]);

/** ConstantFormats: each format's name (what equality compares) and its check. */
const FORMATS: Record<string, { name: string; validate: (text: string) => string[] }> = {
  dns1123Label: { name: 'DNS1123Label', validate: (text) => nameIsDNSLabel(text, false) },
  dns1123Subdomain: { name: 'DNS1123Subdomain', validate: (text) => nameIsDNSSubdomain(text, false) },
  dns1035Label: { name: 'DNS1035Label', validate: (text) => nameIsDNS1035Label(text, false) },
  qualifiedName: { name: 'QualifiedName', validate: isQualifiedName },
  dns1123LabelPrefix: { name: 'DNS1123LabelPrefix', validate: (text) => nameIsDNSLabel(text, true) },
  dns1123SubdomainPrefix: { name: 'DNS1123SubdomainPrefix', validate: (text) => nameIsDNSSubdomain(text, true) },
  dns1035LabelPrefix: { name: 'DNS1035LabelPrefix', validate: (text) => nameIsDNS1035Label(text, true) },
  labelValue: { name: 'LabelValue', validate: isValidLabelValue },
  uri: {
    name: 'URI',
    validate: (text) => {
      const url = goParseRequestURI(text);
      return typeof url === 'string' ? [url] : [];
    },
  },
  uuid: { name: 'uuid', validate: check((text) => UUID.test(text), 'does not match the UUID format') },
  byte: { name: 'byte', validate: check((text) => BASE64.test(text), 'invalid base64') },
  date: { name: 'date', validate: check(isDate, 'invalid date') },
  datetime: { name: 'datetime', validate: check(isDateTime, 'invalid datetime') },
};

type Format = (typeof FORMATS)[string];

export const formatLibrary: Library = (runtime, types) => {
  const { cel } = runtime;
  const { celFunc, celMethod } = cel;
  const { STRING } = cel.CelScalar;
  const [FORMAT, OPTIONAL] = [types['kubernetes.NamedFormat'], types.optional_type];
  const { some, none } = optionals(runtime, OPTIONAL);
  const value = (format: Format) => FORMAT.of(format.name, format);
  return [
    ...Object.entries(FORMATS).map(([key, format]) => celFunc(`format.${key}`, [], FORMAT.type, () => value(format))),
    celFunc('format.named', [STRING], OPTIONAL.type, (name) => (Object.hasOwn(FORMATS, name) ? some(value(FORMATS[name]!)) : none())),
    celMethod('validate', FORMAT.type, [STRING], OPTIONAL.type, function (text) {
      const errors = (FORMAT.value(this) as Format).validate(text);
      return errors.length === 0 ? none() : some(cel.celList(errors));
    }),
  ];
};
