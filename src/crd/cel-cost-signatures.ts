/**
 * What cel-go's checker makes of a call, as far as the cost estimate reads it: its result type and
 * the overloads it may take (the estimate of `+` on strings is not that on lists; with a dyn
 * argument, every overload that fits is priced). Calls are typed by the standard library, the
 * strings extension and Kubernetes' libraries of 1.33; an unknown function gives dyn, as a value
 * of unknown type costs the most.
 */
import {
  BOOL,
  BYTES,
  type CelType,
  CIDR,
  DOUBLE,
  DURATION,
  DYN,
  FORMAT,
  INT,
  IP,
  isAny,
  join,
  list,
  map,
  optional,
  QUANTITY,
  SEMVER,
  STRING,
  TIMESTAMP,
  TYPE,
  UINT,
  URL,
} from './cel-cost-types.js';

/** Whether a value of type `arg` may be passed as `param`, dyn taking anything. */
const fits = (param: CelType, arg: CelType): boolean => isAny(param) || isAny(arg) || param.kind === arg.kind;

export interface Signature {
  result: CelType;
  /** The overload IDs the checker may pick, in declaration order: several when an argument is dyn. */
  overloads: string[];
}

const one = (result: CelType, overload: string): Signature => ({ result, overloads: [overload] });

/** Overloads by the types of their arguments, in cel-go's declaration order; a dyn argument keeps every candidate. */
function pick(candidates: Array<[string, CelType[], CelType]>, args: CelType[], fallback: string): Signature {
  const found = candidates.filter(([, params]) => params.length === args.length && params.every((param, i) => fits(param, args[i]!)));
  if (found.length === 0) return one(DYN, fallback);
  const result = found.length === 1 ? found[0]![2] : DYN;
  return { result, overloads: found.map(([id]) => id) };
}

const LIST = list(DYN);
const MAP = map(DYN, DYN);
const ADD: Array<[string, CelType[], CelType]> = [
  ['add_int64', [INT, INT], INT],
  ['add_uint64', [UINT, UINT], UINT],
  ['add_double', [DOUBLE, DOUBLE], DOUBLE],
  ['add_string', [STRING, STRING], STRING],
  ['add_bytes', [BYTES, BYTES], BYTES],
  ['add_list', [LIST, LIST], LIST],
  ['add_timestamp_duration', [TIMESTAMP, DURATION], TIMESTAMP],
  ['add_duration_timestamp', [DURATION, TIMESTAMP], TIMESTAMP],
  ['add_duration_duration', [DURATION, DURATION], DURATION],
];

const numeric = (a: CelType, b: CelType): CelType => (a.kind === 'timestamp' && b.kind === 'timestamp' ? DURATION : isAny(a) ? b : a);

/** Comparisons: only the string and bytes overloads cost by size; the others (numbers, bools, times) are one. */
function comparison(name: string, [left, right]: CelType[]): Signature {
  const overloads: string[] = [];
  for (const kind of ['string', 'bytes'] as const) {
    if (fits({ kind }, left!) && fits({ kind }, right!)) overloads.push(`${name}_${kind}`);
  }
  const sized = (type: CelType) => type.kind === 'string' || type.kind === 'bytes';
  if (!sized(left!) && !sized(right!)) overloads.push(name);
  return { result: BOOL, overloads };
}

/** Result types of calls whose overload does not change the estimate, by function name. */
const RESULTS: Record<string, (target: CelType | undefined, args: CelType[]) => CelType> = {};
const returns = (type: CelType, ...names: string[]) => {
  for (const name of names) RESULTS[name] = () => type;
};
returns(BOOL, '!_', '@not_strictly_false', 'isSorted', 'isURL', 'isQuantity', 'isGreaterThan', 'isLessThan', 'isInteger');
returns(BOOL, 'ip.isCanonical', 'isUnspecified', 'isLoopback', 'isLinkLocalMulticast', 'isLinkLocalUnicast', 'isGlobalUnicast');
returns(BOOL, 'isIP', 'isCIDR', 'isSemver', 'sets.contains', 'sets.equivalent', 'sets.intersects', 'hasValue');
returns(INT, 'size', 'indexOf', 'lastIndexOf', 'sign', 'compareTo', 'asInteger', 'family', 'prefixLength', 'major', 'minor', 'patch');
returns(INT, 'getFullYear', 'getMonth', 'getDayOfYear', 'getDayOfMonth', 'getDate', 'getDayOfWeek', 'getHours', 'getMinutes');
returns(INT, 'getSeconds', 'getMilliseconds', 'int');
returns(STRING, 'charAt', 'lowerAscii', 'upperAscii', 'replace', 'substring', 'trim', 'join', 'strings.quote', 'format', 'find');
returns(STRING, 'getScheme', 'getHost', 'getHostname', 'getPort', 'getEscapedPath', 'string');
returns(list(STRING), 'split', 'findAll');
returns(map(STRING, list(STRING)), 'getQuery');
returns(DOUBLE, 'asApproximateFloat', 'double');
returns(UINT, 'uint');
returns(BYTES, 'bytes');
returns(BOOL, 'bool');
returns(DURATION, 'duration');
returns(TIMESTAMP, 'timestamp');
returns(TYPE, 'type');
returns(DYN, 'dyn');
returns(URL, 'url');
returns(QUANTITY, 'quantity', 'add', 'sub');
returns(SEMVER, 'semver');
returns(CIDR, 'cidr', 'masked');
returns(optional(FORMAT), 'format.named');
returns(optional(list(STRING)), 'validate');
for (const name of ['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', 'dns1123SubdomainPrefix'])
  returns(FORMAT, `format.${name}`);
for (const name of ['dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', 'datetime']) returns(FORMAT, `format.${name}`);
const element = (target: CelType | undefined) => (target?.kind === 'list' ? target.elem : DYN);
RESULTS.sum = RESULTS.min = RESULTS.max = element;
RESULTS['-_'] = (_target, [operand]) => operand ?? DYN;
RESULTS['_-_'] = RESULTS['_*_'] = RESULTS['_/_'] = RESULTS['_%_'] = (_target, [a, b]) => numeric(a ?? DYN, b ?? DYN);
RESULTS['optional.of'] = RESULTS['optional.ofNonZeroValue'] = (_target, [value]) => optional(value ?? DYN);
RESULTS['optional.none'] = () => optional(DYN);
RESULTS.value = RESULTS.orValue = (target) => (target?.kind === 'opaque' && target.param !== undefined ? target.param : DYN);
RESULTS.or = (target) => target ?? DYN;
RESULTS['cel.@mapInsert'] = (_target, [container]) => container ?? MAP;

/** What the checker makes of a call of `name` (a qualified name for namespaced functions) on `target` with `args`. */
export function signature(name: string, target: CelType | undefined, args: CelType[]): Signature {
  const [a = DYN, b = DYN, c = DYN] = args;
  switch (name) {
    case '_+_': {
      const found = pick(ADD, args, 'add');
      return found.overloads.length === 1 && found.overloads[0] === 'add_list' && a.kind === 'list' && b.kind === 'list'
        ? { ...found, result: list(join(a.elem, b.elem)) }
        : found;
    }
    case '_<_':
      return comparison('less', args);
    case '_<=_':
      return comparison('less_equals', args);
    case '_>_':
      return comparison('greater', args);
    case '_>=_':
      return comparison('greater_equals', args);
    case '_==_':
      return one(BOOL, 'equals');
    case '_!=_':
      return one(BOOL, 'not_equals');
    case '_&&_':
      return one(BOOL, 'logical_and');
    case '_||_':
      return one(BOOL, 'logical_or');
    case '_?_:_':
      return one(join(b, c), 'conditional');
    case '_[_]':
      return pick(
        [
          ['index_list', [LIST, INT], a.kind === 'list' ? a.elem : DYN],
          ['index_map', [MAP, DYN], a.kind === 'map' ? a.value : DYN],
        ],
        [a, b],
        'index',
      );
    case '@in':
      return pick(
        [
          ['in_list', [DYN, LIST], BOOL],
          ['in_map', [DYN, MAP], BOOL],
        ],
        [a, b],
        'in',
      );
    case 'contains':
      return one(BOOL, target === undefined ? 'contains' : 'contains_string');
    case 'startsWith':
      return one(BOOL, 'starts_with_string');
    case 'endsWith':
      return one(BOOL, 'ends_with_string');
    case 'matches':
      return one(BOOL, target === undefined ? 'matches' : 'matches_string');
    case 'format':
      return one(STRING, 'string_format');
    case 'strings.quote':
      return one(STRING, 'strings_quote');
    case 'string':
      return pick(
        [
          ['bytes_to_string', [BYTES], STRING],
          ['string', [DYN], STRING],
        ],
        [a],
        'string',
      );
    case 'bytes':
      return pick(
        [
          ['string_to_bytes', [STRING], BYTES],
          ['bytes', [DYN], BYTES],
        ],
        [a],
        'bytes',
      );
    case 'ip':
      return one(IP, target === undefined ? 'string_to_ip' : 'cidr_ip');
    case 'containsIP':
      return pick(
        [
          ['cidr_contains_ip_string', [STRING], BOOL],
          ['cidr_contains_ip_ip', [IP], BOOL],
        ],
        [a],
        'containsIP',
      );
    case 'containsCIDR':
      return pick(
        [
          ['cidr_contains_cidr_string', [STRING], BOOL],
          ['cidr_contains_cidr', [CIDR], BOOL],
        ],
        [a],
        'containsCIDR',
      );
    case 'sets.contains':
    case 'sets.intersects':
    case 'sets.equivalent':
      return one(BOOL, `list_sets_${name.slice(5)}_list`);
  }
  const result = RESULTS[name];
  return one(result === undefined ? DYN : result(target, args), name);
}
