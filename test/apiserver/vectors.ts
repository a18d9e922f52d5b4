/**
 * The committed vectors (test/vectors/<Kind>.jsonl): one manifest a line with the oracle's verdict,
 * so that `npm test` compares our check with Kubernetes' without Go. A custom resource's line names
 * its CRD by file (relative to repos/) and digest instead of repeating it: the file is read when the
 * vectors are checked, and a changed CRD makes its vectors stale (regenerate them).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT, SHIPPED_REPOS } from '../helpers/repos.js';
import type { OracleVerdict } from '../helpers/oracle.js';
import type { Manifest } from './case.js';
import { builtInCheck, customResourceCheck, type OurCheck } from './our-check.js';
import type { ShippedKind } from './shipped.js';

export const VECTORS_DIR = path.join(ROOT, 'test/vectors');

export interface CrdReference {
  /** The CRD file, relative to repos/. */
  file: string;
  /** sha256 of the CRD as sent to the oracle (its JSON). */
  sha256: string;
}

/** A manifest written by hand to be judged by the oracle into the vectors (scripts/oracle-case-vectors.ts), under `rule`. */
export interface HandWrittenCase {
  kind: string;
  rule: string;
  manifest: Record<string, unknown>;
}

export interface Vector {
  /** What the generator probed, `<class>/<what>`. */
  rule: string;
  manifest: Manifest;
  crd?: CrdReference;
  oracle: OracleVerdict;
  /**
   * `generated seed=<seed>` by scripts/oracle-vectors.ts, `differential seed=<seed>` when a run of
   * `npm run test:oracle` found it, `case <why>` for one written by hand (test/apiserver, scripts/oracle-case-vectors.ts).
   */
  source: string;
}

export const vectorFile = (kind: string) => path.join(VECTORS_DIR, `${kind}.jsonl`);

export const crdDigest = (crd: unknown) => createHash('sha256').update(JSON.stringify(crd)).digest('hex');

export const crdReference = (kind: ShippedKind): CrdReference | undefined =>
  kind.crd === undefined ? undefined : { file: kind.crd.file, sha256: crdDigest(kind.crd.manifest) };

/** The vectors of a kind, each with its line number; none when the file does not exist. */
export function readVectors(kind: string): Array<{ line: number; vector: Vector }> {
  const file = vectorFile(kind);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((text, i) => ({ text, line: i + 1 }))
    .filter(({ text }) => text.trim() !== '')
    .map(({ text, line }) => ({ line, vector: JSON.parse(text) as Vector }));
}

/**
 * The oracle's verdict as written to a file: the same bytes for the same manifest on every run. Go
 * walks maps (labels, annotations, data) in random order and prints pointers in structs by their
 * address (`Controller:(*bool)(0xc000a1b2c8)`): errors are sorted, addresses masked.
 */
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function stableVerdict(verdict: OracleVerdict): OracleVerdict {
  const mask = (message: string) => message.replace(/\(0x[0-9a-f]+\)/g, '(0x…)');
  const errors = verdict.errors
    .map((error) => ({ ...error, message: mask(error.message) }))
    .sort((a, b) => order(a.field, b.field) || order(a.type, b.type) || order(a.message, b.message));
  return { ...verdict, errors };
}

/** One line of a vector file: the members in a fixed order. */
export const vectorLine = ({ rule, manifest, crd, oracle, source }: Vector) =>
  JSON.stringify({ manifest, ...(crd === undefined ? {} : { crd }), oracle, rule, source });

export function writeVectors(kind: string, vectors: readonly Vector[]): void {
  mkdirSync(VECTORS_DIR, { recursive: true });
  writeFileSync(vectorFile(kind), vectors.map((vector) => `${vectorLine(vector)}\n`).join(''));
}

/** Appends vectors to a kind's file. */
export function appendVectors(kind: string, vectors: readonly Vector[]): void {
  if (vectors.length === 0) return;
  const before = existsSync(vectorFile(kind)) ? readFileSync(vectorFile(kind), 'utf8') : '';
  writeFileSync(
    vectorFile(kind),
    before + (before === '' || before.endsWith('\n') ? '' : '\n') + vectors.map((vector) => `${vectorLine(vector)}\n`).join(''),
  );
}

/** The CRD a reference names, as the oracle was sent it; throws when the file changed since. */
export function resolveCrd(reference: CrdReference): Manifest {
  const crd = parse(readFileSync(path.join(SHIPPED_REPOS, reference.file), 'utf8')) as Manifest;
  if (crdDigest(crd) !== reference.sha256) {
    throw new Error(
      `${reference.file} changed since its vectors were judged: regenerate them (npm run oracle:vectors -- --kinds <Kind>), which needs Go`,
    );
  }
  return crd;
}

/** Our check of a shipped kind. */
export function checkOf(kind: ShippedKind): OurCheck {
  return kind.crd === undefined
    ? builtInCheck(kind.apiVersion, kind.kind)
    : customResourceCheck(kind.crd.manifest, kind.crd.file, kind.apiVersion, kind.kind);
}
