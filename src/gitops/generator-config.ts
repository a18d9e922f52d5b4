/**
 * The FacetformGenerator: what a kustomization (or a KRM function's functionConfig) says about
 * rendering its request files. Offline from a folder of bundles, or with a server whose API key an
 * environment variable holds (the key itself never belongs in Git):
 *
 *   apiVersion: facetform.dev/v1alpha1
 *   kind: FacetformGenerator
 *   metadata: { name: requests }
 *   bundles: ../../dist            # or server: https://facetform.example, apiKeyEnv: FACETFORM_API_KEY
 *   requests: [requests/*.yaml]    # files, folders or patterns, relative to the kustomization
 *   strict: false                  # true refuses unknown fields
 */
import path from 'node:path';
import { Ajv } from 'ajv';
import { REQUEST_FILE_API_VERSION } from '../request-file/request-file.js';
import { problemsOf } from '../schema/input-validator.js';
import { PROJECT_ROOT } from '../util/project-root.js';
import { isPlainObject } from '../util/json.js';
import { BundleRenderer } from './bundle-renderer.js';
import { fieldPathOf } from './field-path.js';
import { GitopsError } from './gitops-error.js';
import type { Renderer } from './renderer.js';
import { ServerRenderer } from './server-renderer.js';

export const GENERATOR_KIND = 'FacetformGenerator';
export const DEFAULT_API_KEY_ENV = 'FACETFORM_API_KEY';

export interface GeneratorConfig {
  bundles?: string;
  server?: string;
  apiKeyEnv?: string;
  requests?: string[];
  strict?: boolean;
}

const generatorSchema = {
  type: 'object',
  required: ['apiVersion', 'kind'],
  properties: {
    apiVersion: { const: REQUEST_FILE_API_VERSION },
    kind: { const: GENERATOR_KIND },
    metadata: { type: 'object' },
    bundles: { type: 'string', minLength: 1 },
    // No user or password in the URL: the key comes from the environment, and a URL is printed in messages.
    server: { type: 'string', pattern: '^https?://[^/@]+(/.*)?$' },
    // Only a variable meant for facetform: a config in Git must not send any other secret of the environment to a server it names.
    apiKeyEnv: { type: 'string', pattern: '^FACETFORM_[A-Za-z0-9_]*$' },
    requests: { type: 'array', items: { type: 'string', minLength: 1 } },
    strict: { type: 'boolean' },
  },
  additionalProperties: false,
  not: { required: ['bundles', 'server'] },
};

let validate: ReturnType<Ajv['compile']> | undefined;

/** The config, or a GitopsError naming every problem with its field. */
export function parseGeneratorConfig(value: unknown, file: string): GeneratorConfig {
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(generatorSchema);
  if (validate(value)) return value as GeneratorConfig;
  const problems = (validate.errors ?? []).map((error) => {
    if (error.keyword === 'not') return { pointer: '/server', detail: 'give bundles (render offline) or server (render with a facetform server), not both' };
    if (error.keyword === 'additionalProperties') return { pointer: `/${String(error.params.additionalProperty)}`, detail: `is not a field of a ${GENERATOR_KIND}; use ${Object.keys(generatorSchema.properties).join(', ')}` };
    if (error.keyword === 'const') return { pointer: error.instancePath, detail: `must be ${JSON.stringify(error.params.allowedValue)}` };
    if (error.keyword === 'pattern') {
      return { pointer: error.instancePath, detail: error.instancePath === '/server' ? 'must be an http:// or https:// URL with no user or password in it' : 'must be the name of an environment variable that starts with FACETFORM_' };
    }
    return problemsOf([error], '')[0]!;
  });
  const first = problems[0]!;
  const text = problems.map((problem) => `${fieldPathOf(problem.pointer, value) || '(the whole config)'}: ${problem.detail}`).join('; ');
  throw new GitopsError(`${file}: ${isPlainObject(value) ? '' : 'must be a FacetformGenerator object; '}${text}`, file, first.pointer);
}

/** Where bundles come from when the config names none: BUNDLES_DIR, as for `facetform serve`, or facetform's own dist/. */
export const defaultBundles = (env: NodeJS.ProcessEnv): string => env.BUNDLES_DIR || path.join(PROJECT_ROOT, 'dist');

/** The renderer the config asks for; relative paths are relative to `base` (the kustomization's folder). */
export function rendererOf(config: GeneratorConfig, base: string, env: NodeJS.ProcessEnv): Renderer {
  if (config.server !== undefined) {
    const name = config.apiKeyEnv ?? DEFAULT_API_KEY_ENV;
    const key = env[name];
    if (key === undefined || key === '') throw new GitopsError(`the server ${config.server} needs an API key: set the environment ` +
`variable ${name}${config.apiKeyEnv === undefined ? ' (or name another FACETFORM_ variable in apiKeyEnv)' : ''}`);
    return new ServerRenderer(config.server, key);
  }
  return BundleRenderer.fromFolder(config.bundles === undefined ? defaultBundles(env) : path.resolve(base, config.bundles));
}
