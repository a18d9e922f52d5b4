/** The disk cache of generated kind schemas: a shortcut that must never change what a build sees. */
import { cpSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { KindSchemaCache } from '../src/kubernetes/kind-schema-cache.js';
import { KubeTypes } from '../src/kubernetes/kube-types.js';
import { tempDir } from './helpers/repos.js';

const GENERATOR = new URL('../src/kubernetes/', import.meta.url);
const CONFIG_MAP = [{ apiVersion: 'v1', kind: 'ConfigMap' }];
const fresh = KubeTypes.generate(CONFIG_MAP).kindSchema('v1', 'ConfigMap')!;

const entries = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.json'));

describe('kind schema cache', () => {
  // Generating takes a second or more: one cache is filled, and each test works on a copy of it.
  let filled: string;
  let generated: unknown;
  beforeAll(() => {
    filled = tempDir();
    generated = KubeTypes.cachedIn(KindSchemaCache.open([GENERATOR], filled))
      .add(CONFIG_MAP)
      .kindSchema('v1', 'ConfigMap');
  });
  const filledCopy = () => {
    const dir = tempDir();
    cpSync(filled, dir, { recursive: true });
    return dir;
  };

  it('writes what it generates and reads it back equal to a fresh generation', () => {
    expect(generated).toStrictEqual(fresh);
    expect(entries(filled)).toHaveLength(1);
    expect(
      KubeTypes.cachedIn(KindSchemaCache.open([GENERATOR], filledCopy()))
        .add(CONFIG_MAP)
        .kindSchema('v1', 'ConfigMap'),
    ).toStrictEqual(fresh);
  });

  it('reads an entry instead of generating, so a second run costs no generation', () => {
    const dir = filledCopy();
    // A planted mark shows the second run took the entry rather than generating its own.
    const [entry] = entries(dir);
    const stored = JSON.parse(readFileSync(path.join(dir, entry!), 'utf8'));
    stored.definitions.ConfigMap.description = 'read from the cache';
    writeFileSync(path.join(dir, entry!), JSON.stringify(stored));
    const again = KubeTypes.cachedIn(KindSchemaCache.open([GENERATOR], dir))
      .add(CONFIG_MAP)
      .kindSchema('v1', 'ConfigMap')!;
    expect(again.definitions.ConfigMap!.description).toBe('read from the cache');
  });

  it('never reads an entry made by other generation code, and keeps both', () => {
    const dir = filledCopy();
    const before = entries(dir);
    // Another module list stands for edited generation code or an upgraded package: another digest.
    const edited = KindSchemaCache.open([GENERATOR, new URL('../src/util/', import.meta.url)], dir);
    expect(edited.read('v1', 'ConfigMap')).toBeUndefined();
    expect(KubeTypes.cachedIn(edited).add(CONFIG_MAP).kindSchema('v1', 'ConfigMap')).toStrictEqual(fresh);
    // Two checkouts may share one node_modules: neither evicts the other's entries.
    expect(entries(dir)).toHaveLength(2);
    expect(entries(dir)).toEqual(expect.arrayContaining(before));
  });

  it('reads nothing from an entry that is not JSON or not the kind asked for, so the kind is generated again', () => {
    const dir = filledCopy();
    const [entry] = entries(dir);
    for (const damaged of [
      '{"apiVersion": "v1", "kind": "Con',
      JSON.stringify({ apiVersion: 'v1', kind: 'Secret', definitions: {} }),
      '[]',
    ]) {
      writeFileSync(path.join(dir, entry!), damaged);
      expect(KindSchemaCache.open([GENERATOR], dir).read('v1', 'ConfigMap')).toBeUndefined();
    }
  });

  it('reads no entry that is a symlink, even to a good entry', () => {
    const dir = filledCopy();
    const [entry] = entries(dir);
    const target = path.join(tempDir(), 'elsewhere.json');
    cpSync(path.join(dir, entry!), target);
    rmSync(path.join(dir, entry!));
    symlinkSync(target, path.join(dir, entry!));
    expect(KindSchemaCache.open([GENERATOR], dir).read('v1', 'ConfigMap')).toBeUndefined();
  });

  it('only generates when its folder cannot be written', () => {
    const file = path.join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const types = KubeTypes.cachedIn(KindSchemaCache.open([GENERATOR], path.join(file, 'cache'))).add(CONFIG_MAP);
    expect(types.kindSchema('v1', 'ConfigMap')).toStrictEqual(fresh);
  });
});
