/**
 * The YAML answer as kubectl reads it (CONTRACT §6, issue 13): for arbitrary strings and member
 * names, kubectl's own decoder (`kubectl annotate --local -f FILE`, which reads a file as `apply`
 * does) reads the YAML answer to exactly what it reads from the JSON answer, and to the value sent.
 * Batched: one multi-document YAML file and one v1 List per batch, one kubectl call for each.
 * KUBECTL_YAML_RUNS=100 runs more batches. kubectl must be installed: without it the suite fails.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatManifest, formatManifestList } from '../src/manifest/format.js';
import { toPointer } from '../src/util/json.js';
import { tempDir } from './helpers/repos.js';
import { execPath, startTestServer, type TestServer } from './helpers/server.js';

const KUBECTL = process.env.KUBECTL ?? 'kubectl';
const RUNS = Number(process.env.KUBECTL_YAML_RUNS ?? 10);
/** The annotation kubectl is asked to add, so that it decodes and prints the object; removed before comparing. */
const PROBE = 'probe.facetform.test/read';

let work: string;
let fileCount = 0;
let kubectlCalls = 0;
beforeAll(async () => {
  work = tempDir('facetform-kubectl-yaml-');
  try {
    await promisify(execFile)(KUBECTL, ['version', '--client']);
  } catch (error) {
    throw new Error(`these tests need kubectl (${KUBECTL}) to decode YAML as kubectl apply does: ${(error as Error).message}`);
  }
});

type Read = { ok: true; documents: string[] } | { ok: false; error: string };

/** kubectl's reading of a file: the JSON text it prints for each object, in file order. */
async function kubectlRead(text: string, extension: 'yaml' | 'json'): Promise<Read> {
  const file = path.join(work, `${++fileCount}.${extension}`);
  writeFileSync(file, text);
  kubectlCalls++;
  try {
    const { stdout } = await promisify(execFile)(KUBECTL, ['annotate', '--local', '-f', file, `${PROBE}=1`, '-o', 'json'], {
      maxBuffer: 1 << 28,
      encoding: 'utf8',
    });
    // Each object is printed indented, so only a top-level object opens with a line that is `{`.
    return { ok: true, documents: stdout.split(/^(?=\{$)/m) };
  } catch (error) {
    return { ok: false, error: String((error as { stderr?: string }).stderr || (error as Error).message).trim() };
  }
}

/** The object kubectl read, without the probe annotation it was asked to add (nor `annotations` when the manifest had none). */
function withoutProbe(document: string, manifest: object): unknown {
  const object = JSON.parse(document);
  delete object.metadata.annotations[PROBE];
  if (
    Object.keys(object.metadata.annotations).length === 0 &&
    (manifest as { metadata?: { annotations?: unknown } }).metadata?.annotations === undefined
  )
    delete object.metadata.annotations;
  return object;
}

/** A string as a JSON literal with every character outside printable ASCII escaped, long ones cut in the middle. */
function shown(text: string): string {
  const escaped = JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (character) => {
    const code = character.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16).toUpperCase()}}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
  });
  return escaped.length <= 300 ? escaped : `${escaped.slice(0, 150)}…${escaped.slice(-60)} (${[...text].length} characters)`;
}

function shownValue(value: unknown): string {
  return typeof value === 'string' ? shown(value) : (JSON.stringify(value) ?? 'nothing');
}

/** Where two JSON values first differ, as a pointer and both sides. */
function firstDifference(
  expected: unknown,
  actual: unknown,
  at: string[] = [],
): { pointer: string; expected: unknown; actual: unknown } | undefined {
  if (isDeepStrictEqual(expected, actual)) return undefined;
  if (
    typeof expected === 'object' &&
    expected !== null &&
    typeof actual === 'object' &&
    actual !== null &&
    Array.isArray(expected) === Array.isArray(actual)
  ) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    for (const key of keys) {
      const difference = firstDifference((expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], [
        ...at,
        key,
      ]);
      if (difference !== undefined) return difference;
    }
  }
  return { pointer: toPointer(at) || '/', expected, actual };
}

/** Why kubectl's reading of `manifest` as YAML is not exact, or undefined when it is. */
function mismatchOf(manifest: object, fromYaml: Read & { ok: true }, fromJson: Read & { ok: true }, index: number): string | undefined {
  const yamlDocument = fromYaml.documents[index];
  const jsonDocument = fromJson.documents[index];
  const expected = JSON.parse(JSON.stringify(manifest));
  if (yamlDocument === undefined || jsonDocument === undefined)
    return `kubectl read ${fromYaml.documents.length} objects from the YAML and ${fromJson.documents.length} from the JSON`;
  const fromYamlObject = withoutProbe(yamlDocument, manifest);
  const difference = firstDifference(expected, fromYamlObject);
  if (difference !== undefined) {
    return `kubectl reads ${shown(difference.pointer)} of the YAML answer as ${shownValue(difference.actual)}, not ${shownValue(difference.expected)}`;
  }
  if (!isDeepStrictEqual(withoutProbe(jsonDocument, manifest), expected))
    return 'kubectl reads the JSON answer differently from the value sent';
  if (yamlDocument !== jsonDocument) {
    const yamlLines = yamlDocument.split('\n');
    const jsonLines = jsonDocument.split('\n');
    const line = yamlLines.findIndex((text, at) => text !== jsonLines[at]);
    return `kubectl reads the YAML answer differently from the JSON answer: ${shown(yamlLines[line] ?? '')} instead of ${shown(jsonLines[line] ?? '')}`;
  }
  return undefined;
}

/** What kubectl makes of a batch: the manifests it reads back inexactly (index → why), or why it refuses the YAML stream. */
async function readBack(manifests: object[]): Promise<{ refused: string } | { inexact: Map<number, string> }> {
  const [fromYaml, fromJson] = await Promise.all([
    kubectlRead(formatManifestList(manifests, 'yaml'), 'yaml'),
    kubectlRead(formatManifestList(manifests, 'json'), 'json'),
  ]);
  if (!fromJson.ok) throw new Error(`kubectl refuses the JSON answer: ${fromJson.error}`);
  if (!fromYaml.ok) return { refused: fromYaml.error };
  if (fromYaml.documents.length !== manifests.length)
    return { refused: `kubectl read ${fromYaml.documents.length} objects from a stream of ${manifests.length}` };
  const inexact = new Map<number, string>();
  manifests.forEach((manifest, index) => {
    const why = mismatchOf(manifest, fromYaml, fromJson, index);
    if (why !== undefined) inexact.set(index, why);
  });
  return { inexact };
}

/** The manifests kubectl does not read back exactly, with why: the whole batch at once, halved while kubectl refuses it. */
async function inexactManifests(manifests: object[], indices = manifests.map((_, index) => index)): Promise<Map<number, string>> {
  if (indices.length === 0) return new Map();
  const result = await readBack(indices.map((index) => manifests[index]!));
  if ('inexact' in result) return new Map([...result.inexact].map(([at, why]) => [indices[at]!, why]));
  if (indices.length === 1) return new Map([[indices[0]!, `kubectl refuses the YAML answer: ${result.refused}`]]);
  const half = Math.ceil(indices.length / 2);
  const first = await inexactManifests(manifests, indices.slice(0, half));
  return first.size > 0 ? first : inexactManifests(manifests, indices.slice(half));
}

/** kubectl's reading of one manifest's YAML answer, checked to be its reading of the JSON answer too. */
async function kubectlReadsYamlOf(manifest: object): Promise<unknown> {
  const yaml = formatManifest(manifest, 'yaml');
  const [fromYaml, fromJson] = await Promise.all([kubectlRead(yaml, 'yaml'), kubectlRead(formatManifest(manifest, 'json'), 'json')]);
  if (!fromYaml.ok) throw new Error(`kubectl refuses the YAML answer: ${fromYaml.error}\n${yaml}`);
  if (!fromJson.ok) throw new Error(`kubectl refuses the JSON answer: ${fromJson.error}`);
  expect(fromYaml.documents).toEqual(fromJson.documents);
  return withoutProbe(fromYaml.documents[0]!, manifest);
}

// ---- Generators: Go's number and boolean words, YAML indicators, characters kubectl refuses or folds.

const NASTY_TOKENS = [
  ...[
    '0o644',
    '0O17',
    '0o17',
    '0X1F',
    '0x1f',
    '0B101',
    '0b101',
    '-0b101',
    '1e1_0',
    '1e10',
    '+_1',
    '-_1',
    '.5',
    '-.5',
    '+.5',
    '5.',
    '1_000',
    '1__0',
    '0x_1',
    '0_7',
    '0777',
    '09',
    '1e+21',
    '1E-7',
    '0.0',
  ],
  ...['9007199254740993', '18446744073709551616', '-9223372036854775809', '0x8000000000000000', '1' + '0'.repeat(40)],
  ...[
    '12:30',
    '12:30:00',
    '190:20:30',
    '2001-12-14',
    '2001-12-14t21:59:43.10-05:00',
    '2001-12-14 21:59:43.10',
    '2001-12-14T21:59:43Z',
    '2002-1-2',
  ],
  ...[
    'y',
    'Y',
    'yes',
    'Yes',
    'YES',
    'yEs',
    'n',
    'N',
    'no',
    'No',
    'NO',
    'true',
    'True',
    'TRUE',
    'false',
    'False',
    'on',
    'On',
    'ON',
    'off',
    'Off',
    'OFF',
  ],
  ...[
    '~',
    'null',
    'Null',
    'NULL',
    'nULL',
    '.inf',
    '.Inf',
    '-.inf',
    '+.INF',
    '.nan',
    '.NaN',
    'NaN',
    'inf',
    'Infinity',
    '=',
    '<<',
    '<<<',
    '!!str',
    '!!binary',
    '!x',
    '!',
  ],
  ...[
    '-',
    '- ',
    '--',
    '---',
    '--- x',
    '...',
    '?',
    '? ',
    ':',
    ': ',
    '::',
    'a:',
    'a: b',
    'a:b',
    '#',
    ' #',
    'a #b',
    'a#b',
    '&a',
    '*a',
    '%',
    '%YAML 1.1',
    '@',
    '`',
  ],
  ...[
    '|',
    '|-',
    '|2',
    '|+',
    '>',
    '>-',
    '{',
    '}',
    '[',
    ']',
    '{}',
    '[]',
    '{a: 1}',
    "'",
    "''",
    '"',
    '\\',
    '\\n',
    '\\x41',
    '\\u0041',
    ',',
    'a, b',
  ],
  ...[
    'web',
    'nginx:1.25',
    '10Gi',
    '500m',
    'v1',
    'apps/v1',
    '.dockerconfigjson',
    '_x',
    '/path',
    'a b',
    'kind: Secret',
    'metadata:',
    '\nkind: Secret',
    'x: y\nmetadata:',
  ],
];
/** Text whose first or last line holds only spaces or tabs (issue 33). */
const WHITESPACE_EDGES: Record<string, string> = {
  a: ' \n',
  b: '  \n\nx',
  c: '  \n\nx\n',
  d: ' \n\n',
  e: '\t\n',
  f: '\n \n',
  g: 'x\n ',
  h: 'x\n\t\n\n',
  i: ' \t\n  x\n',
  j: '\n\n  \n\nx',
};
/** Single characters kubectl refuses raw, takes for line breaks, or that change how a scalar reads. */
const NASTY_CHARACTERS = [
  ...[
    '\t',
    '\n',
    '\r',
    ' ',
    '\u0000',
    '\u0001',
    '\u0007',
    '\u0008',
    '\u000b',
    '\u000c',
    '\u001b',
    '\u001f',
    '\u007f',
    '\u0080',
    '\u0085',
    '\u009f',
    '\u00a0',
    '\u00ad',
  ],
  ...[
    '\u2028',
    '\u2029',
    '\u200b',
    '\u202e',
    '\ufeff',
    '\ufffd',
    '\ufffe',
    '\uffff',
    '\ue000',
    '\ufdd0',
    '\u{1fffe}',
    '\u{10fffe}',
    '\u{10000}',
    '\u{1f600}',
    '\u{10ffff}',
    'é',
    '\u0301',
    'ß',
    '\u3000',
  ],
];
const noLoneSurrogate = (text: string) => !/[\ud800-\udfff]/u.test(text);
const nastyCharacter = fc.oneof(
  fc.constantFrom(...NASTY_CHARACTERS),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 }),
);
const piece = fc.oneof(
  fc.constantFrom(...NASTY_TOKENS),
  nastyCharacter,
  fc.string({ unit: 'grapheme-ascii', maxLength: 6 }),
  fc.constantFrom(' ', '  ', '\n', '\n\n', '\t', '\r\n'),
);
/** Lines of text, with blank, space-only and tab-led lines where literal blocks go wrong. */
const multiLine = fc
  .array(
    fc.oneof(
      fc.constantFrom('', ' ', '  ', '\t', '\tx', ' x', 'x ', '#x', '- x', 'a: b', '---', '...', '|'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 12 }),
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { minLength: 2, maxLength: 6 },
  )
  .chain((lines) => fc.constantFrom('', '\n', '\n\n', '\n\n\n').map((end) => lines.join('\n') + end));
const hostileString = fc
  .oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NASTY_TOKENS) },
    { weight: 5, arbitrary: fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join('')) },
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
    { weight: 2, arbitrary: fc.string({ unit: nastyCharacter, maxLength: 8 }) },
    { weight: 3, arbitrary: multiLine },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('a', '0o', ' ', 'é', '\u{1f600}', '"', '\n'), fc.integer({ min: 300, max: 1100 }))
        .map(([unit, count]) => unit.repeat(count)),
    },
  )
  .filter(noLoneSurrogate);
/** Names around the 1024-character limit of implicit keys, as written (plain, or quoted and escaped). */
const longName = fc
  .tuple(
    fc.constantFrom('', 'k', '0o', '"', '\n', '\u0085', '\u{1f600}', 'é', ' '),
    fc.integer({ min: 330, max: 1100 }),
    fc.constantFrom('', 'k', ' ', ':'),
  )
  .map(([unit, count, end]) => unit + 'k'.repeat(count) + end);
const hostileName = fc.oneof({ weight: 9, arbitrary: hostileString }, { weight: 1, arbitrary: longName }).filter((name) => name !== PROBE);
const edgeNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    2 ** 31,
    2 ** 53,
    2 ** 53 + 2,
    -(2 ** 53) - 2,
    2 ** 63,
    -(2 ** 63),
    2 ** 64,
    1e21,
    1e-7,
    5e-324,
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    123456789012345680000,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
/** Shapes under an unknown top-level member: names at several depths, every JSON type, arrays in arrays. */
const nestedJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString,
    edgeNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(hostileName, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** A generated member name and string value, and where in a ConfigMap they go. */
type Entry = [name: string, value: string];
const ROLES = [
  'a data entry',
  'a label',
  'an annotation',
  'a member of an unknown top-level field',
  'a mapping in a sequence',
  'a member three mappings deep, its value in nested sequences',
] as const;
const ENTRIES_PER_CONFIGMAP = 4 * ROLES.length;
const CONFIGMAPS = 10;

/** A ConfigMap holding `entries`, each where its role says; colliding names are left out and not counted. */
function configMapOf(entries: Array<[Entry, number]>, index: number, shape?: unknown, numbers: number[] = []) {
  const data = {};
  const labels = {};
  const annotations = {};
  const level2 = {};
  const extra: Record<string, unknown> = {
    list: [],
    deep: { level1: { level2 } },
    scalars: [...numbers, true, false, null, [], {}, [[1.5, [null, 'x']], []]],
  };
  if (shape !== undefined) extra.shape = shape;
  const placed = { names: 0, strings: 0 };
  for (const [[name, value], role] of entries) {
    const member = role === 4 ? {} : [data, labels, annotations, extra, undefined, level2][role]!;
    if (Object.hasOwn(member, name)) continue;
    // defineProperty, so that a name such as __proto__ is a member as JSON.parse makes it.
    Object.defineProperty(member, name, {
      value: role === 5 ? [[value], []] : value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    if (role === 4) (extra.list as object[]).push(member);
    placed.names++;
    placed.strings++;
  }
  const manifest = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${index}`, labels, annotations }, data, extra };
  return { manifest, placed };
}

/** How many strings and member names a generated shape holds. */
function countOf(value: unknown, counts = { strings: 0, names: 0 }): { strings: number; names: number } {
  if (typeof value === 'string') counts.strings++;
  else if (typeof value === 'object' && value !== null) {
    for (const member of Object.values(value)) countOf(member, counts);
    if (!Array.isArray(value)) counts.names += Object.keys(value).length;
  }
  return counts;
}

const SHRINK_MS = 60_000;

/** The smallest entry, in the same role, that kubectl still does not read back: fast-check shrinks the failing one. */
async function smallestFailing(entry: Entry, role: number): Promise<{ entry: Entry; why: string }> {
  const readsBack = async (candidate: Entry) => (await inexactManifests([configMapOf([[candidate, role]], 0).manifest])).size === 0;
  // Each shrinking step is a kubectl call, and a long name shrinks one character at a time: stop after a while.
  const details = await fc.check(fc.asyncProperty(fc.tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), readsBack), {
    examples: [[entry]],
    numRuns: 1,
    interruptAfterTimeLimit: SHRINK_MS,
  });
  const smallest = details.counterexample?.[0] ?? entry;
  const why = (await inexactManifests([configMapOf([[smallest, role]], 0).manifest])).get(0) ?? 'kubectl reads it back exactly when alone';
  return { entry: smallest, why: details.interrupted ? `${why} (shrinking stopped after ${SHRINK_MS / 1000} s)` : why };
}

describe('YAML answers read by kubectl', () => {
  const entriesPerBatch = CONFIGMAPS * ENTRIES_PER_CONFIGMAP;
  it(`read back exactly for arbitrary strings and member names (${RUNS} batches of ${entriesPerBatch} names and values, two kubectl calls each)`, async () => {
    const started = Date.now();
    const callsBefore = kubectlCalls;
    const checked = { strings: 0, names: 0, batches: 0 };
    const batch = fc.tuple(
      fc.array(fc.tuple(hostileName, hostileString), { minLength: entriesPerBatch, maxLength: entriesPerBatch }),
      fc.array(nestedJson, { minLength: CONFIGMAPS, maxLength: CONFIGMAPS }),
      fc.array(edgeNumber, { minLength: 8, maxLength: 8 }),
    );
    await fc.assert(
      fc.asyncProperty(batch, async ([entries, shapes, numbers]) => {
        const manifests = shapes.map((shape, index) => {
          const mine = entries
            .slice(index * ENTRIES_PER_CONFIGMAP, (index + 1) * ENTRIES_PER_CONFIGMAP)
            .map((entry, at): [Entry, number] => [entry, at % ROLES.length]);
          const { manifest, placed } = configMapOf(mine, index, shape, numbers);
          checked.names += placed.names;
          const inShape = countOf(shape);
          checked.strings += placed.strings + inShape.strings;
          checked.names += inShape.names;
          return manifest;
        });
        checked.batches++;
        const inexact = await inexactManifests(manifests);
        if (inexact.size === 0) return;
        // Which generated entry fails on its own, then the smallest string that still fails.
        const alone = await inexactManifests(entries.map((entry, at) => configMapOf([[entry, at % ROLES.length]], at).manifest));
        const [index, whyAlone] = [...alone][0] ?? [];
        if (index === undefined)
          throw new Error(
            `kubectl does not read back a ConfigMap of the batch exactly, though each of its entries alone reads back: ${[...inexact.values()][0]}\nYAML:\n${formatManifest(manifests[[...inexact.keys()][0]!]!, 'yaml')}`,
          );
        const role = index % ROLES.length;
        const smallest = await smallestFailing(entries[index]!, role);
        throw new Error(
          [
            `kubectl does not read back ${alone.size} of the ${entriesPerBatch} generated names and values exactly. The first, as ${ROLES[role]}:`,
            `  name:  ${shown(entries[index]![0])}`,
            `  value: ${shown(entries[index]![1])}`,
            `  ${whyAlone}`,
            `Shrunk by fast-check to the smallest that still fails:`,
            `  name:  ${shown(smallest.entry[0])}`,
            `  value: ${shown(smallest.entry[1])}`,
            `  ${smallest.why}`,
            `YAML written for it:`,
            formatManifest(configMapOf([[smallest.entry, role]], 0).manifest, 'yaml'),
          ].join('\n'),
        );
      }),
      // No shrinking of whole batches (each step is a kubectl call): the failing entry is shrunk alone above.
      { numRuns: RUNS, endOnFailure: true },
    );
    console.info(
      `kubectl read back ${checked.strings} generated strings and ${checked.names} member names in ${checked.batches} batches, ${kubectlCalls - callsBefore} kubectl calls, ${Date.now() - started} ms`,
    );
    if (RUNS >= 10) {
      expect(checked.strings).toBeGreaterThanOrEqual(2000);
      expect(checked.names).toBeGreaterThanOrEqual(500);
    }
  }, 300_000);

  // The cases of issue 13, each with the exact object kubectl must read.
  const configMap = (extra: Record<string, unknown>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, ...extra });
  const cases: Array<[string, object]> = [
    ['a label value 0o644, which Go reads as the number 420', configMap({ metadata: { name: 'c', labels: { mode: '0o644' } } })],
    ['a data key "0o17", which Go reads as 15', configMap({ data: { '0o17': 'x', '0X1F': 'y', '0B101': 'z', '1e1_0': 'a', '+_1': 'b' } })],
    [
      'U+2028, U+2029 and U+0085, which Go takes for line breaks',
      configMap({ data: { a: 'one\u2028two', b: 'x\u2029', c: '\u0085y', d: 'multi\nline\u2028text\n' } }),
    ],
    [
      'DEL, C1 controls and U+FFFF, which kubectl refuses raw',
      configMap({ data: { a: 'x\u007fy', b: '\u0080\u009f', c: '\uffff', d: 'a\nb\u007f\n', e: '\u0000\u001b' } }),
    ],
    ['a first line that is only spaces (" \\n" came back as "\\n")', configMap({ data: { a: ' \n', b: '  \nx', c: '\n\nx\n\n' } })],
    [
      'a first or last line of only whitespace (issue 33: "  \\n\\nx")',
      configMap({ data: { ...WHITESPACE_EDGES }, extra: [...Object.values(WHITESPACE_EDGES), { k: [' \n'] }] }),
    ],
    ['a first line that starts with a tab', configMap({ data: { a: '\tindented\nnext', b: '\t\n' } })],
    [
      'a << member name, a StorageClass parameter go-yaml takes for a merge key',
      {
        apiVersion: 'storage.k8s.io/v1',
        kind: 'StorageClass',
        metadata: { name: 's' },
        provisioner: 'example.com/x',
        parameters: { '<<': 'merge', type: 'gp3' },
      },
    ],
    [
      'member names that try to add top-level fields',
      configMap({ data: { 'a\nkind: Secret': 'v', 'x: y\nmetadata:': 'w', '\napiVersion: v2': '1' } }),
    ],
    [
      'a member name longer than the 1024 characters of an implicit key',
      configMap({ data: { ['k'.repeat(1030)]: 'long', ['"'.repeat(600)]: 'quoted', ['k'.repeat(1024)]: 'at the limit' } }),
    ],
  ];
  for (const [what, manifest] of cases) {
    it(`reads back ${what}`, async () => {
      expect(await kubectlReadsYamlOf(manifest)).toEqual(manifest);
    });
  }

  it('writes text led or ended by a line of only whitespace double-quoted, which kubectl and the yaml library read alike', async () => {
    // A literal block carries such a line as trailing whitespace: go-yaml reads `|2` + `   ` as " \n",
    // the yaml library (and whatever trims trailing whitespace) as "". Quoted, every reader agrees.
    const manifest = configMap({ data: { ...WHITESPACE_EDGES } });
    const yaml = formatManifest(manifest, 'yaml');
    for (const value of Object.values(WHITESPACE_EDGES)) expect(yaml).toContain(JSON.stringify(value));
    expect(yaml).not.toContain('|2');
    expect(parseYaml(yaml)).toEqual(manifest);
    expect(await kubectlReadsYamlOf(manifest)).toEqual(manifest);
    // Lines of only whitespace between lines with content stay in a readable literal block.
    const inside = configMap({ data: { script: 'def f():\n    x = 1\n    \n    return x\n', b: '\n\nx\n' } });
    expect(formatManifest(inside, 'yaml')).toContain('script: |2\n');
    expect(parseYaml(formatManifest(inside, 'yaml'))).toEqual(inside);
    expect(await kubectlReadsYamlOf(inside)).toEqual(inside);
  });

  it('keeps a member name from injecting a top-level field: kubectl reads a ConfigMap, not a Secret', async () => {
    // The YAML library written before broke a name at U+2028 or U+0085: this ConfigMap came back a Secret.
    const manifest = configMap({
      data: { 'x\u2028kind': 'Secret', 'y\u0085kind': 'Secret', 'a\nkind: Secret\nb': 'v' },
      'x: y\nmetadata': { name: 'other' },
    });
    const read = (await kubectlReadsYamlOf(manifest)) as Record<string, unknown>;
    expect(read.kind).toBe('ConfigMap');
    expect(Object.keys(read).sort()).toEqual(['apiVersion', 'data', 'kind', 'metadata', 'x: y\nmetadata']);
    expect(read).toEqual(manifest);
  });

  it('reads integers beyond 2^53 as kubectl reads them from the JSON answer', async () => {
    const numbers = [
      2 ** 53 + 2,
      -(2 ** 53) - 2,
      2 ** 63,
      -(2 ** 63),
      2 ** 64,
      1e21,
      123456789012345680000,
      1e-7,
      Number.MAX_VALUE,
      5e-324,
    ];
    expect(await kubectlReadsYamlOf(configMap({ extra: { numbers } }))).toEqual(configMap({ extra: { numbers } }));
  });

  it('writes ordinary values plain and readable, and equal input as equal bytes', () => {
    const service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }], selector: {}, clusterIPs: [] },
    };
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'app' },
      data: {
        'app.properties': 'server.port=8080\ncache.enabled=true\n',
        image: 'nginx:1.25',
        storage: '10Gi',
        mode: '0644',
        enabled: 'true',
      },
    };
    expect(formatManifestList([service, config], 'yaml')).toBe(
      [
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata:',
        '  name: web',
        '  labels:',
        '    app: web',
        'spec:',
        '  ports:',
        '    - port: 80',
        '      targetPort: 8080',
        '      protocol: TCP',
        '  selector: {}',
        '  clusterIPs: []',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: app',
        'data:',
        '  app.properties: |2',
        '    server.port=8080',
        '    cache.enabled=true',
        '  image: nginx:1.25',
        '  storage: 10Gi',
        '  mode: "0644"',
        '  enabled: "true"',
        '',
      ].join('\n'),
    );
    expect(formatManifest(JSON.parse(JSON.stringify(service)), 'yaml')).toBe(formatManifest(service, 'yaml'));
  });
});

describe('the server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers a ConfigMap with hostile data keys and values in YAML that kubectl reads as the JSON answer', async () => {
    // Data keys are what the API server takes (IsConfigMapKey: [-._a-zA-Z0-9]+, at most 253 characters,
    // not '.' or '..' nor starting with '..'), yet YAML reads many of them as numbers, booleans, null,
    // dates or indicators: every token that is such a key is one. Values may be any text.
    const configMapKey = (key: string) => /^[-._a-zA-Z0-9]{1,253}$/.test(key) && key !== '.' && !key.startsWith('..');
    const data: Record<string, string> = {};
    const keyTokens = NASTY_TOKENS.filter(configMapKey);
    expect(keyTokens).toEqual(
      expect.arrayContaining(['0x1f', '1e10', '.5', 'yes', 'off', 'null', '.inf', '.nan', '-', '---', '2001-12-14']),
    );
    for (const [index, token] of keyTokens.entries()) data[token] = keyTokens[(index + 1) % keyTokens.length]!;
    Object.assign(data, {
      '0o17': '0o644',
      '---': 'x: y\nmetadata:',
      // The longest key the API server takes.
      ['k'.repeat(253)]: ' \n\tlead\n',
      '.inf': '\u0085\u2029\u007f\u0080\uffff\ufeff\u2028',
      yes: '~',
      null: '',
      '-': '? y',
      '1e1_0': '+_1',
      merge: '<<',
    });
    for (const [index, token] of NASTY_TOKENS.entries()) data[`t${index}`] = token;
    for (const [index, character] of NASTY_CHARACTERS.entries()) data[`c${index}`] = `${character}x${character}`;
    const request = { facets: ['addon:data'], values: { c: { metadata: { name: 'c' }, data } } };
    const exec = execPath('config-and-storage-resources', 'configmap');
    const [yaml, json] = await Promise.all([
      server.request(`${exec}?format=yaml`, { method: 'POST', json: request }),
      server.request(exec, { method: 'POST', json: request }),
    ]);
    expect([yaml.status, json.status]).toEqual([200, 200]);
    const [yamlText, jsonText] = [await yaml.text(), await json.text()];
    const [fromYaml, fromJson] = await Promise.all([kubectlRead(yamlText, 'yaml'), kubectlRead(jsonText, 'json')]);
    if (!fromYaml.ok) throw new Error(`kubectl refuses the YAML answer: ${fromYaml.error}`);
    expect(fromJson.ok).toBe(true);
    expect(fromYaml.documents).toEqual((fromJson as { documents: string[] }).documents);
    expect(withoutProbe(fromYaml.documents[0]!, JSON.parse(jsonText))).toEqual(JSON.parse(jsonText));
    expect((JSON.parse(jsonText) as { data: unknown }).data).toEqual(data);
  });
});
