/**
 * kubectl without a kubeconfig talks to localhost:8080, and some builds ask its /version even for
 * `kubectl kustomize`: every kubectl the tests run gets the tests' own kubeconfig instead
 * (test/helpers/global-setup.ts), whose cluster nothing listens for.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runProcess } from './helpers/gitops.js';
import { withoutKubectl } from './helpers/tools.js';

const NOWHERE = 'https://127.0.0.1:1';
const SERVER = ['config', 'view', '--minify', '-o', 'jsonpath={.clusters[0].cluster.server}'];

describe.skipIf(withoutKubectl)("the tests' kubectl", () => {
  it('reaches no server a test did not start, when run with the environment of the tests', () => {
    expect(execFileSync('kubectl', SERVER, { encoding: 'utf8' })).toBe(NOWHERE);
  });

  it('reaches no server a test did not start, when run with the environment of a request-file tool', async () => {
    expect(await runProcess('kubectl', SERVER)).toMatchObject({ code: 0, stdout: NOWHERE });
  });
});
