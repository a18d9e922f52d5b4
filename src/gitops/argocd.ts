/**
 * `facetform argocd generate`, as Argo CD's repo server runs a config management plugin: in the
 * application's folder, with the ARGOCD_APP_* variables and a PARAM_<NAME> variable for each
 * parameter the Application sets (gitops/argocd/plugin.yaml declares them). It renders every
 * request file of the folder, or those the `requests` parameter names. Whether it renders with a
 * server is the operator's choice, made in the sidecar's environment (FACETFORM_SERVER and
 * FACETFORM_API_KEY), never an Application's: a parameter could send the key anywhere.
 */
import { REQUEST_FILE_API_VERSION } from '../request-file/request-file.js';
import { GENERATOR_KIND, parseGeneratorConfig, rendererOf } from './generator-config.js';
import { GitopsError } from './gitops-error.js';
import { generateManifests, type Generated } from './manifest-stream.js';
import { readRequestEntries } from './request-source.js';

/** The parameters of plugin.yaml, each read from its PARAM_ variable. */
export const ARGOCD_PARAMETERS = ['strict', 'requests'] as const;
export const SERVER_VARIABLE = 'FACETFORM_SERVER';
const variable = (parameter: string) => `PARAM_${parameter.toUpperCase().replace(/-/g, '_')}`;

export async function argocdGenerate(dir: string, env: NodeJS.ProcessEnv): Promise<Generated> {
  const param = (name: (typeof ARGOCD_PARAMETERS)[number]) => env[variable(name)] || undefined;
  const strict = param('strict');
  if (strict !== undefined && strict !== 'true' && strict !== 'false') throw new GitopsError(`parameter strict (${variable('strict')}) must be true or false, not "${strict}"`);
  const config = parseGeneratorConfig(
    {
      apiVersion: REQUEST_FILE_API_VERSION,
      kind: GENERATOR_KIND,
      ...(env[SERVER_VARIABLE] ? { server: env[SERVER_VARIABLE] } : {}),
    },
    `the sidecar's ${SERVER_VARIABLE}`,
  );
  const renderer = rendererOf(config, dir, env);
  const named = param('requests')?.split(',').map((entry) => entry.trim()).filter(Boolean);
  const read = readRequestEntries(dir, named ?? ['.']);
  if (read.sources.length === 0 && (named === undefined || read.problems.length === 0)) {
    throw new GitopsError(`no facetform request file (apiVersion ${REQUEST_FILE_API_VERSION}, ` +
`kind Request or BatchRequest) in ${env.ARGOCD_APP_SOURCE_PATH || dir}${named ? ` among ${named.join(', ')}` : ''}`);
  }
  return generateManifests(read, renderer, { strict: strict === 'true' });
}
