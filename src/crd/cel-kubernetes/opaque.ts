/**
 * The value types Kubernetes' CEL libraries add (net.IP, net.CIDR, kubernetes.URL,
 * kubernetes.Quantity, kubernetes.NamedFormat) and CEL's optional_type, on @bufbuild/cel, whose
 * only extensible values are protobuf messages: each type is a message whose one field is a key
 * equal for values Go's Equal calls equal (CEL's == and `in` compare messages field by field), the
 * value itself held beside, out of the field list. The messages are in no registry, so a rule can
 * no more build one (`net.IP{}`) than in Kubernetes.
 */
import type { CelFunc, CelList, CelMap, CelObjectType, CelValue } from '@bufbuild/cel';
import type { DescMessage, Message } from '@bufbuild/protobuf';
import type { ReflectMessage } from '@bufbuild/protobuf/reflect';

/** The modules the libraries are made of, loaded by cel-library.ts. */
export interface CelRuntime {
  cel: typeof import('@bufbuild/cel');
  protobuf: typeof import('@bufbuild/protobuf');
  wkt: typeof import('@bufbuild/protobuf/wkt');
  reflect: typeof import('@bufbuild/protobuf/reflect');
  /** @bufbuild/re2, Go's regexp syntax, which @bufbuild/cel's matches() runs too. */
  re2: typeof import('@bufbuild/re2');
}

const HELD = Symbol('value held by a Kubernetes CEL value');

/** One of the types: its message, its CEL type for signatures, a maker and a reader of its values. */
export interface OpaqueType<T> {
  desc: DescMessage;
  type: CelObjectType;
  /** A CEL value holding `value`; values with equal keys are equal. */
  of(key: string, value: T): ReflectMessage;
  /** The value a CEL value of this type holds. */
  value(cel: CelValue): T;
}

/** The message of each type name (one file a package), made once per runtime. */
function descriptors(runtime: CelRuntime, names: string[]): Map<string, DescMessage> {
  const { protobuf, wkt } = runtime;
  const byPackage = new Map<string, string[]>();
  for (const name of names) {
    const dot = name.lastIndexOf('.');
    const pkg = dot < 0 ? '' : name.slice(0, dot);
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), name.slice(dot + 1)]);
  }
  const found = new Map<string, DescMessage>();
  for (const [pkg, messages] of byPackage) {
    const file = protobuf.create(wkt.FileDescriptorProtoSchema, {
      name: `facetform/cel-kubernetes/${pkg || 'types'}.proto`,
      package: pkg,
      syntax: 'proto3',
      messageType: messages.map((name) => ({
        name,
        field: [
          {
            name: 'key',
            jsonName: 'key',
            number: 1,
            type: wkt.FieldDescriptorProto_Type.STRING,
            label: wkt.FieldDescriptorProto_Label.OPTIONAL,
          },
        ],
      })),
    });
    const registry = protobuf.createFileRegistry(file, () => undefined);
    for (const name of messages) found.set(pkg ? `${pkg}.${name}` : name, registry.getMessage(pkg ? `${pkg}.${name}` : name)!);
  }
  return found;
}

export const TYPE_NAMES = [
  'net.IP',
  'net.CIDR',
  'kubernetes.URL',
  'kubernetes.Quantity',
  'kubernetes.NamedFormat',
  'optional_type',
] as const;
export type TypeName = (typeof TYPE_NAMES)[number];
/** The types a rule may name (`type(x) == net.IP`), as Kubernetes' environment declares them; the others it may not. */
export const TYPE_IDENTIFIERS: ReadonlySet<string> = new Set<TypeName>(['net.IP', 'net.CIDR', 'optional_type']);

const made = new WeakMap<object, Record<TypeName, OpaqueType<unknown>>>();

/** The types, by name: made once a runtime, for the functions and the registry alike. */
export function opaqueTypes(runtime: CelRuntime): Record<TypeName, OpaqueType<unknown>> {
  const found = made.get(runtime.cel);
  if (found !== undefined) return found;
  const messages = descriptors(runtime, [...TYPE_NAMES]);
  const types = {} as Record<TypeName, OpaqueType<unknown>>;
  made.set(runtime.cel, types);
  for (const name of TYPE_NAMES) {
    const desc = messages.get(name)!;
    types[name] = {
      desc,
      type: runtime.cel.objectType(desc),
      of(key, value) {
        const message = runtime.protobuf.create(desc, { key } as never) as Message & { [HELD]?: unknown };
        message[HELD] = value;
        return runtime.reflect.reflect(desc, message as never);
      },
      value: (cel) => ((cel as ReflectMessage).message as { [HELD]?: unknown })[HELD],
    };
  }
  return types;
}

/** The functions of one library, given the runtime and the types. */
export type Library = (runtime: CelRuntime, types: Record<TypeName, OpaqueType<unknown>>) => CelFunc[];

/** A parsed value, or its parse error thrown (which @bufbuild/cel makes the call's CEL error). */
export function orThrow<T>(parsed: T | string): T {
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

/** CEL's == as @bufbuild/cel runs it (its standard overload), for the libraries that look values up. */
export function celEquals(runtime: CelRuntime): (a: CelValue, b: CelValue) => boolean {
  const equals = runtime.cel.celEnv().funcs.find('_==_')!;
  return (a, b) => equals.call(0, undefined, [a, b]) === true;
}

let unordered = 0;

/**
 * A key equal for CEL values that == calls equal: numbers across int, uint and double by value,
 * lists and maps by their members, messages by their fields; NaN equals nothing.
 */
export function celKey(value: CelValue, runtime: CelRuntime): string {
  const { cel, protobuf, reflect } = runtime;
  switch (typeof value) {
    case 'string':
      return `s${JSON.stringify(value)}`;
    case 'boolean':
      return `b${value}`;
    case 'bigint':
      return `n${value}`;
    case 'number':
      if (Number.isNaN(value)) return `nan${unordered++}`;
      return Number.isInteger(value) ? `n${BigInt(value)}` : `d${value}`;
  }
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `y${Buffer.from(value).toString('base64')}`;
  if (cel.isCelUint(value)) return `n${value.value}`;
  if (cel.isCelList(value)) return `[${[...(value as CelList)].map((item) => celKey(item, runtime)).join(',')}]`;
  if (cel.isCelMap(value)) {
    const entries = [...(value as CelMap)].map(([k, v]) => `${celKey(k, runtime)}:${celKey(v, runtime)}`);
    return `{${entries.sort().join(',')}}`;
  }
  if (cel.isCelType(value)) return `t${value.name}`;
  if (reflect.isReflectMessage(value)) {
    const bytes = protobuf.toBinary(value.desc, value.message);
    return `m${value.desc.typeName}:${Buffer.from(bytes).toString('base64')}`;
  }
  return `?${unordered++}`;
}
