/**
 * The report of a comparison with the oracle: counts per kind, the oracle's verdicts by rule class,
 * the first disagreements with the members concerned and both sides' words, and where our details
 * differ from the oracle's messages.
 */
import type { Judged } from './compare.js';

const distinctSorted = (values: Iterable<string>) => [...new Set(values)].sort();

export interface KindTally {
  total: number;
  accepted: number;
  refused: number;
  decodeErrors: number;
  agreements: number;
  verdictDisagreements: number;
  pointerDisagreements: number;
  nativeOnly: number;
  messageDiffs: number;
}

export function tally(judged: readonly Judged[]): Map<string, KindTally> {
  const byKind = new Map<string, KindTally>();
  for (const { kind, oracle, comparison } of judged) {
    const t = byKind.get(kind) ?? {
      total: 0,
      accepted: 0,
      refused: 0,
      decodeErrors: 0,
      agreements: 0,
      verdictDisagreements: 0,
      pointerDisagreements: 0,
      nativeOnly: 0,
      messageDiffs: 0,
    };
    t.total++;
    if (oracle.verdict === 'accept') t.accepted++;
    else t.refused++;
    if (oracle.decodeError !== undefined) t.decodeErrors++;
    if (comparison.agree) t.agreements++;
    else if (comparison.reason === 'verdict') t.verdictDisagreements++;
    else t.pointerDisagreements++;
    if (comparison.nativeOnly) t.nativeOnly++;
    if (comparison.messageDiffs.length > 0) t.messageDiffs++;
    byKind.set(kind, t);
  }
  return byKind;
}

const columns = [
  'total',
  'accepted',
  'refused',
  'decodeErrors',
  'agreements',
  'verdictDisagreements',
  'pointerDisagreements',
  'nativeOnly',
  'messageDiffs',
] as const;
const headers = [
  'total',
  'accepted',
  'refused',
  'decode',
  'agree',
  'disagree:verdict',
  'disagree:pointers',
  'native-only',
  'message-diffs',
];

/** Counts per kind, as a table. */
export function formatTally(byKind: Map<string, KindTally>): string {
  const rows = [...byKind].sort(([a], [b]) => a.localeCompare(b)).map(([kind, t]) => [kind, ...columns.map((c) => String(t[c]))]);
  const all = ['all', ...columns.map((c) => String([...byKind.values()].reduce((sum, t) => sum + t[c], 0)))];
  const table = [['kind', ...headers], ...rows, all];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table.map((row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')).join('\n');
}

/** The oracle's verdict split by rule class (the part of `rule` before the slash), per kind. */
export function formatRuleSplit(judged: ReadonlyArray<Pick<Judged, 'kind' | 'rule' | 'oracle'>>): string {
  const split = new Map<string, { accept: number; refuse: number; decode: number }>();
  for (const { kind, rule, oracle } of judged) {
    const key = `${kind} ${rule.split('/')[0]}`;
    const s = split.get(key) ?? { accept: 0, refuse: 0, decode: 0 };
    if (oracle.decodeError !== undefined) s.decode++;
    else if (oracle.verdict === 'accept') s.accept++;
    else s.refuse++;
    split.set(key, s);
  }
  return [...split]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([key, s]) =>
        `${key.padEnd(40)} accepted ${String(s.accept).padStart(5)}  refused ${String(s.refuse).padStart(5)}  decode errors ${String(s.decode).padStart(4)}`,
    )
    .join('\n');
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

/** The member at a JSON Pointer, or undefined. */
function at(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let here: unknown = value;
  for (const token of pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (here === null || typeof here !== 'object') return undefined;
    here = (here as Record<string, unknown>)[token];
  }
  return here;
}

/** One disagreement: what, where, the members concerned, both sides' fields and messages. */
export function formatDisagreement({ kind, where, rule, manifest, oracle, comparison: c }: Judged): string {
  const lines = [
    `${kind} ${where} (rule ${rule}): ${c.reason === 'verdict' ? `the oracle ${c.oracleRefuses ? 'refuses' : 'accepts'}, we ${c.ourRefuses ? 'refuse' : 'accept'}` : 'the pointers differ'}${c.nativeOnly ? ' [native-only]' : ''}`,
    `  manifest: ${clip(JSON.stringify(manifest), 400)}`,
  ];
  const pointers = distinctSorted([...c.oraclePointers, ...c.ourPointers]);
  for (const pointer of pointers) {
    const value = at(manifest, pointer);
    lines.push(
      `  at ${pointer || '(the object)'}${c.oraclePointers.includes(pointer) ? '' : ' [ours only]'}${c.ourPointers.includes(pointer) ? '' : ' [oracle only]'}: ${pointer === '' ? '' : clip(JSON.stringify(value) ?? 'absent', 120)}`,
    );
  }
  if (oracle.decodeError !== undefined) lines.push(`  oracle decode error: ${clip(oracle.decodeError, 300)}`);
  for (const error of oracle.errors) lines.push(`  oracle  ${error.field || '(empty)'} ${error.type}: ${clip(error.message, 240)}`);
  for (const problem of c.ours) lines.push(`  ours    ${problem.pointer || '(empty)'}: ${clip(problem.detail, 240)}`);
  return lines.join('\n');
}

/** The whole failure: counts per kind, then the first `limit` disagreements. */
export function formatReport(judged: readonly Judged[], limit = 20): string {
  const disagreements = judged.filter((j) => !j.comparison.agree);
  return [
    `${disagreements.length} of ${judged.length} manifests judged otherwise than the oracle (Kubernetes 1.33):`,
    formatTally(tally(judged)),
    '',
    ...disagreements.slice(0, limit).map(formatDisagreement),
    ...(disagreements.length > limit ? [`… and ${disagreements.length - limit} more`] : []),
  ].join('\n');
}

/** Where our details differ from the oracle's messages (native-only, pointers agreeing). */
export function formatMessageSummary(judged: readonly Judged[], limit = 10): string {
  const differing = judged.filter((j) => j.comparison.messageDiffs.length > 0);
  if (differing.length === 0) return 'messages: every detail equals the oracle’s message where the pointers agree';
  const lines = [`messages: ${differing.length} manifests have a detail that differs from the oracle's message at the same pointer`];
  for (const j of differing.slice(0, limit)) {
    for (const diff of j.comparison.messageDiffs.slice(0, 2)) {
      lines.push(
        `  ${j.kind} ${j.where} at ${diff.pointer || '(the object)'}`,
        ...diff.oracle.map((m) => `    oracle: ${clip(m, 200)}`),
        ...diff.ours.map((m) => `    ours:   ${clip(m, 200)}`),
      );
    }
  }
  return lines.join('\n');
}
