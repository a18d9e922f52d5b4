/**
 * A real OCI registry: Debian's docker-registry (the CNCF distribution registry 2.8) on a loopback
 * port with a storage folder of its own, optionally behind basic auth (an htpasswd file with a
 * bcrypt hash, the only kind it reads).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import bcrypt from 'bcryptjs';
import { freePort } from './redis.js';

export const hasDockerRegistry = spawnSync('docker-registry', ['--version']).status === 0;

export interface DockerRegistry {
  process: ChildProcess;
  /** HOST:PORT. */
  host: string;
  /** oci://HOST:PORT/facetform */
  place: string;
  /** The registry's storage folder (filesystem driver): blobs lie under docker/registry/v2/blobs/sha256/. */
  storage: string;
  /** Ends the registry at once (SIGKILL), as an outage would. */
  kill(): Promise<void>;
  /** Starts it again on the same port and storage, as after an outage. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Token authentication: the registry sends clients to `realm` and trusts tokens signed by the key of `certFile`. */
export interface TokenAuth {
  realm: string;
  service: string;
  issuer: string;
  certFile: string;
}

export async function startDockerRegistry(
  options: { auth?: { username: string; password: string }; token?: TokenAuth; tls?: { certFile: string; keyFile: string } } = {},
): Promise<DockerRegistry> {
  const dir = mkdtempSync(path.join(tmpdir(), 'facetform-registry-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const { token } = options;
  const htpasswd = `auth:\n  htpasswd:\n    realm: facetform-test\n    path: ${path.join(dir, 'htpasswd')}\n`;
  const tokenAuth =
    token === undefined
      ? ''
      : `auth:\n  token:\n    realm: ${token.realm}\n    service: ${token.service}\n    issuer: ${token.issuer}\n    rootcertbundle: ${token.certFile}\n`;
  const auth = options.auth === undefined ? tokenAuth : htpasswd;
  if (options.auth !== undefined)
    writeFileSync(path.join(dir, 'htpasswd'), `${options.auth.username}:${bcrypt.hashSync(options.auth.password, 5)}\n`);
  const tls = options.tls === undefined ? '' : `  tls:\n    certificate: ${options.tls.certFile}\n    key: ${options.tls.keyFile}\n`;
  const config = path.join(dir, 'config.yml');
  writeFileSync(
    config,
    `version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: ${path.join(dir, 'storage')}\n` +
      `  delete:\n    enabled: true\nhttp:\n  addr: ${host}\n${tls}${auth}`,
  );
  let child: ChildProcess;
  const start = async () => {
    child = spawn('docker-registry', ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    let output = '';
    child.stderr!.on('data', (chunk) => (output += chunk));
    for (let attempt = 0; attempt < 200; attempt++) {
      if (child.exitCode !== null) throw new Error(`docker-registry exited with ${child.exitCode}: ${output}`);
      if (await answers(host, options.tls !== undefined)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`docker-registry did not answer on ${host}: ${output}`);
  };
  const kill = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGKILL');
    });
  await start();
  return {
    get process() {
      return child;
    },
    host,
    place: `oci://${host}/facetform`,
    storage: path.join(dir, 'storage'),
    kill,
    restart: start,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether the registry answers /v2/ (over HTTPS without checking its certificate, which the test made). */
function answers(host: string, tls: boolean): Promise<boolean> {
  const [hostname, port] = host.split(':');
  return new Promise((resolve) => {
    const request = (tls ? https : http).get({ hostname, port, path: '/v2/', rejectUnauthorized: false }, (response) => {
      response.resume();
      resolve(response.statusCode === 200 || response.statusCode === 401);
    });
    request.on('error', () => resolve(false));
  });
}
