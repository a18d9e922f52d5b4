/**
 * Which user name and password a registry gets: those given, else REGISTRY_USERNAME and
 * REGISTRY_PASSWORD, else what `docker login` (or `helm registry login`) stored for that host in
 * the Docker config file. Credential helpers (`credsStore`) are not run.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { Credentials } from './distribution.js';

export class CredentialsError extends Error {}

function fromDockerConfig(registry: string, env: NodeJS.ProcessEnv): Credentials | undefined {
  const file = path.join(env.DOCKER_CONFIG ?? path.join(homedir(), '.docker'), 'config.json');
  let config: { auths?: Record<string, { auth?: string }> };
  try {
    config = JSON.parse(readFileSync(file, 'utf8')) as typeof config;
  } catch {
    return undefined; // no docker login on this machine
  }
  const entry = Object.entries(config.auths ?? {}).find(
    ([host]) => host.replace(/^https?:\/\//, '').replace(/\/.*$/, '') === registry,
  )?.[1];
  if (typeof entry?.auth !== 'string') return undefined;
  const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new CredentialsError(`${file}: the entry for ${registry} is not base64 of user:password`);
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function credentialsFor(registry: string, env: NodeJS.ProcessEnv, given?: Partial<Credentials>): Credentials | undefined {
  const username = given?.username ?? env.REGISTRY_USERNAME;
  const password = given?.password ?? env.REGISTRY_PASSWORD;
  if (username !== undefined && password !== undefined) return { username, password };
  if (username !== undefined || password !== undefined)
    throw new CredentialsError(
      `a ${username === undefined ? 'password' : 'user name'} was given for ${registry} without a ${username === undefined ? 'user name' : 'password'}`,
    );
  return fromDockerConfig(registry, env);
}
