/** The editor schemas a build wrote (dist/schemas/), and ajv in strict mode to check files against them. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { kubernetesFormats } from '../../src/kubernetes/kube-formats.js';
import { SCHEMA_ID_PREFIX } from '../../src/editor-schemas/editor-schemas.js';
import { ROOT } from './repos.js';

export const COMMITTED_SCHEMAS = path.join(ROOT, 'dist/schemas');

/** Every file under `dir`, as a `/`-separated path relative to it, sorted. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

export const readSchema = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8'));

/** Member names of a schema that are Kubernetes' extensions (x-kubernetes-*): annotations ajv must be told of, in strict mode. */
function extensionKeywords(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const item of value) extensionKeywords(item, found);
  else if (typeof value === 'object' && value !== null)
    for (const [name, member] of Object.entries(value)) {
      if (name.startsWith('x-kubernetes-')) found.add(name);
      extensionKeywords(member, found);
    }
  return found;
}

/** Checks values against the schemas of `dir`, each compiled by ajv in strict mode (union types allowed, as the input schemas use them). */
export class SchemaChecker {
  private readonly ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });

  constructor(readonly dir: string) {
    for (const [name, format] of Object.entries(kubernetesFormats)) this.ajv.addFormat(name, format as never);
    const schemas = filesUnder(dir).map((file) => readSchema(path.join(dir, file)));
    const keywords = new Set<string>();
    for (const schema of schemas) extensionKeywords(schema, keywords);
    this.ajv.addVocabulary([...keywords]);
    for (const schema of schemas) this.ajv.addSchema(schema);
  }

  /** The errors of `value` against the schema at `file` (relative to dir/), none when it is valid. */
  errors(file: string, value: unknown): ErrorObject[] {
    const validate = this.ajv.getSchema(SCHEMA_ID_PREFIX + file);
    if (validate === undefined) throw new Error(`no schema ${file} in ${this.dir}`);
    return validate(value) ? [] : [...(validate.errors ?? [])];
  }
}
