/**
 * The Kubernetes API types as JSON Schema, with every constraint of the official OpenAPI.
 * `kubernetes-models` carries them in two forms: TypeScript declarations (structure, required
 * members, enums, descriptions), which `ts-json-schema-generator` turns into JSON Schema
 * (normalise-definitions.ts makes it read as the OpenAPI does), and ajv validators compiled from the
 * OpenAPI, which alone know int32/int64, byte, date-time and quantity (validator-constraints.ts asks
 * them). Generation costs a few seconds per program, so a build creates one program per API group
 * version its collections use, and keeps what it made on disk for the next run (kind-schema-cache.ts).
 */
import { createRequire } from 'node:module';
import { kubeModel } from './kube-models.js';
import type { KindSchema, Schema } from './kind-schema.js';
import { KindSchemaCache } from './kind-schema-cache.js';
import { normaliseDefinitions } from './normalise-definitions.js';
import { addValidatorConstraints } from './validator-constraints.js';

// Loading the generator loads TypeScript, half a second: only a run that generates pays for it.
const loadGenerator = () => createRequire(import.meta.url)('ts-json-schema-generator') as typeof import('ts-json-schema-generator');

let shared: KubeTypes | undefined;
/** The code that generates and probes, for the cache's digest: this folder (kinds, validators, formats, generation) and util/. */
const CODE_FOLDERS = ['./', '../util/'];

export class KubeTypes {
  private readonly kinds = new Map<string, KindSchema>();

  private constructor(private readonly cache: KindSchemaCache | undefined) {}

  /** Generates the schemas of the given kinds, reading and writing no cache; kinds kubernetes-models does not know are left out. */
  static generate(wanted: Array<{ apiVersion: string; kind: string }>): KubeTypes {
    return new KubeTypes(undefined).add(wanted);
  }

  /** None yet; `add` reads each kind from `cache` before generating it, and writes what it generates. */
  static cachedIn(cache: KindSchemaCache): KubeTypes {
    return new KubeTypes(cache);
  }

  /**
   * The process's one set, for builds and `facetform dev` that compile again and again: each kind is
   * read from the disk cache or generated once, and every later compile takes it from here. A kind's
   * schema is the same whichever compile asked for it first.
   */
  static shared(): KubeTypes {
    shared ??= KubeTypes.cachedIn(KindSchemaCache.open(CODE_FOLDERS.map((folder) => new URL(folder, import.meta.url))));
    return shared;
  }

  /** Generates the schemas of the given kinds that are not here yet; returns this. */
  add(wanted: Array<{ apiVersion: string; kind: string }>): this {
    const byDeclarations = new Map<string, Set<string>>();
    for (const { apiVersion, kind } of wanted) {
      if (this.kinds.has(`${apiVersion}|${kind}`)) continue;
      const model = kubeModel(apiVersion, kind);
      if (model === undefined) continue;
      const cached = this.cache?.read(apiVersion, kind);
      if (cached !== undefined) {
        this.kinds.set(`${apiVersion}|${kind}`, cached);
        continue;
      }
      if (!byDeclarations.has(model.declarations)) byDeclarations.set(model.declarations, new Set());
      byDeclarations.get(model.declarations)!.add(`${apiVersion}|${kind}`);
    }
    for (const [file, keys] of byDeclarations) {
      const options = { path: file, expose: 'export', topRef: true, skipTypeCheck: true, jsDoc: 'extended' } as const;
      const generator = loadGenerator().createGenerator(options);
      for (const key of [...keys].sort()) {
        const [apiVersion, kind] = key.split('|') as [string, string];
        const model = kubeModel(apiVersion, kind)!;
        const generated = generator.createSchema(model.typeName);
        const definitions = normaliseDefinitions(generated.definitions ?? {});
        addValidatorConstraints(kind, definitions, model.validate);
        this.kinds.set(key, { kind, apiVersion, definitions });
        this.cache?.write({ kind, apiVersion, definitions });
      }
    }
    return this;
  }

  kindSchema(apiVersion: string, kind: string): KindSchema | undefined {
    return this.kinds.get(`${apiVersion}|${kind}`);
  }
}
