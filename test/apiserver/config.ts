/**
 * ConfigMaps and Secrets (core/validation ValidateConfigMap, ValidateSecret): data keys (config keys:
 * `[-._a-zA-Z0-9]+`, at most 253, not `.` or `..` or starting with `..`), a key in both data and
 * binaryData, the 1 MiB total, and the keys each Secret type requires (kubernetes.io/tls,
 * dockerconfigjson, dockercfg, basic-auth, ssh-auth, service-account-token). stringData is merged
 * into data before validation, so its keys are judged (and reported) as data's.
 */
import fc from 'fast-check';
import { type KindGenerator, type Manifest, probe } from './case.js';
import { metadataProbes, validMetadata } from './metadata.js';
import { candidate } from './near-miss.js';
import { validString } from './strings.js';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const MAX_SIZE = 1024 * 1024;
const KEY_MISSES = ['.', '..', '..a', '..data', '.a', 'a..b', 'a/b', 'a b', 'ä', 'a:b', '-', '_', 'a'.repeat(253), 'a'.repeat(254)];
const keyCandidate = fc.oneof(
  { arbitrary: candidate('configMapKey'), weight: 3 },
  { arbitrary: fc.constantFrom(...KEY_MISSES), weight: 1 },
);
const value = fc.oneof(fc.constantFrom('', 'debug', 'a=b\nc=d\n', '{"port": 8080}'), fc.string({ maxLength: 30 }));

const validConfigMap = fc
  .tuple(
    validMetadata({ nameRule: 'dns1123Subdomain', namespaced: true }),
    fc.dictionary(validString('configMapKey'), value, { maxKeys: 4 }),
    fc.dictionary(validString('configMapKey'), fc.string({ maxLength: 20 }).map(b64), { maxKeys: 2 }),
    fc.option(fc.boolean(), { nil: undefined, freq: 4 }),
  )
  .map(([metadata, data, binaryData, immutable]) => {
    for (const key of Object.keys(binaryData)) if (key in data) delete binaryData[key];
    return {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata,
      ...(Object.keys(data).length > 0 ? { data } : {}),
      ...(Object.keys(binaryData).length > 0 ? { binaryData } : {}),
      ...(immutable === undefined ? {} : { immutable }),
    };
  });

/** `total` bytes of values over one or two keys of `member`. */
const sized = (total: number, keys: string[], encode: (text: string) => string) =>
  Object.fromEntries(
    keys.map((key, i) => [
      key,
      encode('x'.repeat(i === 0 ? total - Math.floor(total / keys.length) * (keys.length - 1) : Math.floor(total / keys.length))),
    ]),
  );

export const configMap: KindGenerator = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  namespaced: true,
  valid: validConfigMap,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: true }),
    probe('keys/data-key', fc.tuple(keyCandidate, value), (m, [key, v]) => ((m.data ??= {})[key] = v), 5),
    probe('keys/binaryData-key', keyCandidate, (m, key) => ((m.binaryData ??= {})[key] = b64('bytes')), 3),
    probe(
      'keys/in-data-and-binaryData',
      fc.tuple(validString('configMapKey'), fc.boolean()),
      (m, [key, same]) => {
        (m.data ??= {})[key] = 'text';
        (m.binaryData ??= {})[same ? key : `${key}.bin`.slice(-253)] = b64('bytes');
      },
      3,
    ),
    // Values count in bytes toward 1 MiB, data and binaryData (decoded) together.
    probe(
      'keys/size',
      fc.tuple(fc.integer({ min: -1, max: 1 }), fc.boolean()),
      (m, [delta, binary]) => {
        (delete m.data, delete m.binaryData);
        m.data = sized(MAX_SIZE + delta - (binary ? 100 : 0), ['blob.txt'], (text) => text);
        if (binary) m.binaryData = { 'blob.bin': b64('x'.repeat(100)) };
      },
      0.1,
    ),
    probe(
      'decode/binaryData-not-base64',
      fc.constantFrom('not base64!', 'YQ', '====', 'YQ=='),
      (m, text) => ((m.binaryData ??= {})['blob.bin'] = text),
      0.5,
    ),
    probe('decode/data-not-string', fc.constantFrom(1, true, null), (m, v) => ((m.data ??= {})['count'] = v), 0.5),
  ],
};

/** The Secret types and what each must hold (a data map in plain text: encoded when written). */
const TYPED: Record<string, Record<string, string>> = {
  'kubernetes.io/tls': {
    'tls.crt': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
    'tls.key': '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n',
  },
  'kubernetes.io/dockerconfigjson': { '.dockerconfigjson': '{"auths":{"ghcr.io":{"auth":"dXNlcjpwYXNz"}}}' },
  'kubernetes.io/dockercfg': { '.dockercfg': '{"ghcr.io":{"auth":"dXNlcjpwYXNz"}}' },
  'kubernetes.io/basic-auth': { username: 'admin', password: 's3cret' },
  'kubernetes.io/ssh-auth': { 'ssh-privatekey': '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n' },
  'kubernetes.io/service-account-token': {},
  'bootstrap.kubernetes.io/token': { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef' },
  Opaque: { password: 'hunter2' },
  'example.com/api-key': { key: 'k' },
};
const SA_NAME = 'kubernetes.io/service-account.name';

const validSecret = fc
  .tuple(
    validMetadata({ nameRule: 'dns1123Subdomain', namespaced: true }),
    fc.constantFrom(...Object.keys(TYPED), undefined),
    fc.dictionary(validString('configMapKey'), value, { maxKeys: 2 }),
    fc.constantFrom('data', 'stringData', 'both'),
    fc.option(fc.boolean(), { nil: undefined, freq: 4 }),
  )
  .map(([metadata, type, extra, held, immutable]) => {
    const typed = TYPED[type ?? 'Opaque']!;
    const plain = { ...extra, ...typed };
    const encoded = (entries: Record<string, string>) => Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, b64(v)]));
    // Both: the type's keys as data, one more key as stringData, which the API server merges into data.
    const both = { data: encoded(typed), stringData: { 'config.yaml': 'mode: both', ...extra } };
    const annotations =
      type === 'kubernetes.io/service-account-token' ? { ...metadata.annotations, [SA_NAME]: 'builder' } : metadata.annotations;
    return {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { ...metadata, ...(annotations === undefined ? {} : { annotations }) },
      ...(type === undefined ? {} : { type }),
      ...(held === 'both' ? both : held === 'stringData' ? { stringData: plain } : { data: encoded(plain) }),
      ...(immutable === undefined ? {} : { immutable }),
    };
  });

/** The secret's data and stringData, keys by which they are held. */
function removeKey(m: Manifest, key: string): void {
  delete m.data?.[key];
  delete m.stringData?.[key];
}

export const secret: KindGenerator = {
  apiVersion: 'v1',
  kind: 'Secret',
  namespaced: true,
  valid: validSecret,
  probes: [
    ...metadataProbes({ nameRule: 'dns1123Subdomain', namespaced: true }),
    probe(
      'keys/data-key',
      fc.tuple(keyCandidate, value, fc.boolean()),
      (m, [key, v, plain]) => (plain ? ((m.stringData ??= {})[key] = v) : ((m.data ??= {})[key] = b64(v))),
      5,
    ),
    probe(
      'keys/type-required',
      fc.tuple(
        fc.constantFrom(
          'kubernetes.io/tls',
          'kubernetes.io/dockerconfigjson',
          'kubernetes.io/dockercfg',
          'kubernetes.io/basic-auth',
          'kubernetes.io/ssh-auth',
        ),
        fc.nat(),
        fc.boolean(),
      ),
      (m, [type, i, empty]) => {
        (delete m.data, delete m.stringData);
        m.type = type;
        const keys = Object.keys(TYPED[type]!);
        const gone = keys[i % keys.length]!;
        // basic-auth needs either key; an empty ssh-privatekey counts as missing, an empty tls.key does not.
        m.data = Object.fromEntries(
          keys.filter((key) => key !== gone || empty).map((key) => [key, key === gone ? '' : b64(TYPED[type]![key]!)]),
        );
        if (type === 'kubernetes.io/basic-auth' && i % 3 === 2) m.data = {};
      },
      5,
    ),
    probe(
      'keys/type-json',
      fc.tuple(
        fc.constantFrom('kubernetes.io/dockerconfigjson', 'kubernetes.io/dockercfg'),
        fc.constantFrom('{', '[]', 'null', '"x"', '{}', '{"auths":{}}', ''),
      ),
      (m, [type, text]) => {
        (delete m.data, delete m.stringData);
        m.type = type;
        m.data = { [type === 'kubernetes.io/dockercfg' ? '.dockercfg' : '.dockerconfigjson']: b64(text) };
      },
      3,
    ),
    probe(
      'keys/service-account-name',
      fc.constantFrom(undefined, '', 'builder'),
      (m, name) => {
        m.type = 'kubernetes.io/service-account-token';
        const annotations = (m.metadata.annotations ??= {});
        if (name === undefined) delete annotations[SA_NAME];
        else annotations[SA_NAME] = name;
      },
      2,
    ),
    probe('keys/stringData-and-data', fc.tuple(validString('configMapKey'), value), (m, [key, v]) => {
      (m.data ??= {})[key] = b64('old');
      (m.stringData ??= {})[key] = v;
    }),
    probe(
      'keys/type',
      fc.constantFrom('', 'Opaque', 'opaque', 'kubernetes.io/tls', 'kubernetes.io/unknown', 'a'.repeat(300)),
      (m, type) => {
        m.type = type;
        if (type === 'kubernetes.io/tls') removeKey(m, 'tls.crt');
      },
      2,
    ),
    probe(
      'keys/size',
      fc.tuple(fc.integer({ min: -1, max: 1 }), fc.boolean()),
      (m, [delta, split]) => {
        (delete m.data, delete m.stringData, delete m.type);
        m.data = sized(MAX_SIZE + delta, split ? ['a.bin', 'b.bin'] : ['blob.bin'], b64);
      },
      0.1,
    ),
    probe('decode/data-not-base64', fc.constantFrom('not base64!', 'YQ', 'YQ=='), (m, text) => ((m.data ??= {})['key'] = text), 0.5),
  ],
};
