/**
 * `facetform push` and `pull` against a real OCI registry (Debian's docker-registry 2.8, on a loopback
 * port): releases go up as artifacts and come back byte for byte, tags are never overwritten, and a
 * trust key refuses unsigned and wrongly signed releases, saying which.
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf, type Bundle } from '../src/bundle/bundle.js';
import { loadBundles } from '../src/bundle/load.js';
import { RegistryClient, sha256Digest } from '../src/oci/distribution.js';
import { runCli } from './helpers/build.js';
import { hasDockerRegistry, startDockerRegistry, type DockerRegistry } from './helpers/docker-registry.js';
import { ROOT, tempDir } from './helpers/repos.js';
import { startTokenService, type TokenService } from './helpers/token-service.js';
import { selfSignedCertificate } from './helpers/certificate.js';
import { startHostileRegistry, type HostileRegistry } from './helpers/hostile-registry.js';
import { pino } from 'pino';
import { parsePlace } from '../src/oci/reference.js';
import { BUNDLE_ARTIFACT_TYPE } from '../src/oci/release-artifact.js';
import { RegistryFollower } from '../src/server/registry-follower.js';

const DIST = path.join(ROOT, 'dist');
interface Entry {
  repository: string;
  apiVersion: string;
  release: string;
  digest: string;
  path: string;
}
const index = JSON.parse(readFileSync(path.join(DIST, 'index.json'), 'utf8')) as { bundles: Entry[] };
/** The repository with the most releases, and its releases oldest first. */
const repository = [...new Set(index.bundles.map((entry) => entry.repository))].sort(
  (a, b) => index.bundles.filter((entry) => entry.repository === b).length - index.bundles.filter((entry) => entry.repository === a).length,
)[0]!;
const releases = index.bundles.filter((entry) => entry.repository === repository);
const [oldest, latest] = [releases[0]!, releases.at(-1)!];

/** `facetform pull` of one release from `place` into `folder`, over plain HTTP; `options` and `stdin` as a command needs them. */
const pullInto = (place: string, entry: Entry, folder: string, options: string[] = [], stdin?: string) =>
  runCli(['pull', `${repository}/${entry.apiVersion}@${entry.release}`, place, '--insecure', '--bundles', folder, ...options], stdin);

/** Every file under `dir`, by relative path. */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile())
      files.set(path.relative(dir, path.join(entry.parentPath, entry.name)), readFileSync(path.join(entry.parentPath, entry.name)));
  return files;
}

function keyPair(type: 'ed25519' | 'ec', dir: string, name: string): { privateKey: string; publicKey: string } {
  const pair = type === 'ec' ? generateKeyPairSync('ec', { namedCurve: 'prime256v1' }) : generateKeyPairSync('ed25519');
  const privateKey = path.join(dir, `${name}.pem`);
  const publicKey = path.join(dir, `${name}.pub`);
  writeFileSync(privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, publicKey };
}

describe.skipIf(!hasDockerRegistry)('releases through an OCI registry (docker-registry 2.8)', () => {
  let registry: DockerRegistry;
  let keys: string;
  beforeAll(async () => {
    registry = await startDockerRegistry();
    keys = tempDir();
  }, 30_000);
  afterAll(() => registry?.stop());

  it('pushes every release of a repository and pulls each back byte for byte into an empty folder the server loads', async () => {
    const pushed = await runCli(['push', repository, registry.place, '--insecure', '--bundles', DIST]);
    expect(pushed.stderr).toBe('');
    expect(pushed.code).toBe(0);
    expect(pushed.stdout.match(/ pushed /g)).toHaveLength(releases.length);
    const folder = tempDir();
    for (const entry of releases) {
      const pulled = await pullInto(registry.place, entry, folder);
      expect(pulled.code, pulled.stderr).toBe(0);
      // Both name the release by the same two digests, each labelled.
      const digests = new RegExp(
        `:${entry.release.replaceAll('.', '\\.')} \\S.*?\\((manifest sha256:[0-9a-f]{64}, bundle ${entry.digest}),`,
      );
      expect(pushed.stdout).toMatch(digests);
      expect(pulled.stdout).toMatch(digests);
      expect(digests.exec(pulled.stdout)![1]).toBe(digests.exec(pushed.stdout)![1]);
      const release = path.dirname(entry.path);
      expect(filesOf(path.join(folder, release))).toEqual(filesOf(path.join(DIST, release)));
    }
    expect(loadBundles(folder).map((loaded) => loaded.bundle.digest)).toEqual(releases.map((entry) => entry.digest));
  }, 60_000);

  it('pushes the same release again as a no-op and refuses other content under a pushed tag', async () => {
    const again = await runCli(['push', `${repository}@${oldest.release}`, registry.place, '--insecure', '--bundles', DIST]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('already there');
    // A folder whose oldest release holds the latest one's content, renamed and with a digest of its own.
    const forged = tempDir();
    cpSync(DIST, forged, { recursive: true });
    const bundle = JSON.parse(readFileSync(path.join(DIST, latest.path), 'utf8')) as Bundle;
    bundle.repository.release = oldest.release;
    bundle.digest = digestOf(bundle);
    writeFileSync(path.join(forged, oldest.path), JSON.stringify(bundle));
    const index = JSON.parse(readFileSync(path.join(forged, 'index.json'), 'utf8')) as { bundles: Entry[] };
    index.bundles.find((entry) => entry.path === oldest.path)!.digest = bundle.digest;
    writeFileSync(path.join(forged, 'index.json'), JSON.stringify(index));
    const refused = await runCli(['push', `${repository}@${oldest.release}`, registry.place, '--insecure', '--bundles', forged]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(new RegExp(`:${oldest.release.replace(/\./g, '\\.')} already holds other content .* never replaced`));
  }, 60_000);

  it('with a trust key, pulls a release signed by it (Ed25519 and ECDSA P-256) and refuses one unsigned or signed by another key, saying which', async () => {
    const ed = keyPair('ed25519', keys, 'ed');
    const ec = keyPair('ec', keys, 'ec');
    const stranger = keyPair('ed25519', keys, 'stranger');
    const pushSigned = (entry: Entry, key: string) =>
      runCli(['push', `${repository}@${entry.release}`, registry.place, '--insecure', '--bundles', DIST, '--sign', key]);
    const signed = await pushSigned(latest, ed.privateKey);
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(/signed by key sha256:[0-9a-f]{64}/);
    const bySecond = await pushSigned(oldest, ec.privateKey);
    expect(bySecond.code, bySecond.stderr).toBe(0);

    const pull = (entry: Entry, trustKey: string, folder = tempDir()) => pullInto(registry.place, entry, folder, ['--trust-key', trustKey]);
    expect((await pull(latest, ed.publicKey)).code).toBe(0);
    expect((await pull(oldest, ec.publicKey)).code).toBe(0);
    const wrongKey = await pull(latest, stranger.publicKey);
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toMatch(/is refused: it is signed by key sha256:[0-9a-f]{64}, which is not a trusted key/);
    const unsigned = releases.find((entry) => entry.release !== latest.release && entry.release !== oldest.release) ?? oldest;
    if (unsigned !== oldest) {
      const folder = tempDir();
      const refused = await pull(unsigned, ed.publicKey, folder);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('is refused: it is not signed, and a trust key is configured');
      expect(existsSync(path.join(folder, 'index.json'))).toBe(false);
    }
    // The signature is a referrer: Debian's registry has no referrers API, so it is listed under the OCI 1.1 fallback tag.
    const client = new RegistryClient(registry.host, { insecure: true });
    const tags = await client.tags(`facetform/${repository}/${latest.apiVersion}`);
    expect(tags.filter((tag) => /^sha256-[0-9a-f]{64}$/.test(tag))).toHaveLength(2);
    // Signing again with the same key (ECDSA signs differently each time) adds no second signature.
    const resigned = await pushSigned(oldest, ec.privateKey);
    expect(resigned.code, resigned.stderr).toBe(0);
    const name = `facetform/${repository}/${oldest.apiVersion}`;
    const digest = (await client.manifestDigest(name, oldest.release))!;
    expect(await client.referrers(name, digest, 'application/vnd.facetform.signature.v1')).toHaveLength(1);
  }, 60_000);

  it('refuses a release whose registry answers changed bytes for a file, and leaves the folder as it was', async () => {
    const bundleBytes = readFileSync(path.join(DIST, latest.path));
    const blob = path.join(
      registry.storage,
      'docker/registry/v2/blobs/sha256',
      sha256Digest(bundleBytes).slice(7, 9),
      sha256Digest(bundleBytes).slice(7),
      'data',
    );
    const original = readFileSync(blob);
    writeFileSync(blob, Buffer.from(original.toString('utf8').replace('"release"', '"releasf"')));
    try {
      const folder = tempDir();
      const pulled = await pullInto(registry.place, latest, folder);
      expect(pulled.code).toBe(1);
      expect(pulled.stderr).toContain(`answered blob ${sha256Digest(bundleBytes)}`);
      expect(readdirSync(folder)).toEqual([]);
    } finally {
      writeFileSync(blob, original);
    }
  }, 60_000);

  it('uploads a blob larger than one chunk in several PATCH requests, and it comes back whole', async () => {
    const client = new RegistryClient(registry.host, { insecure: true, chunkBytes: 1000 });
    const bytes = Buffer.from(Array.from({ length: 5500 }, (_, i) => i % 251));
    await client.pushBlob('facetform/chunks', bytes);
    expect(await client.pullBlob('facetform/chunks', sha256Digest(bytes), bytes.length)).toEqual(bytes);
  });

  it('says plainly when the address is not a registry address or the release is not in the folder', async () => {
    const notOci = await runCli(['push', `${repository}@${latest.release}`, `http://${registry.host}/x`, '--bundles', DIST]);
    expect(notOci.code).toBe(2);
    expect(notOci.stderr).toContain('is not a registry address: write oci://HOST[:PORT]/PATH');
    const missing = await runCli(['push', `${repository}@99.0.0`, registry.place, '--insecure', '--bundles', DIST]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`holds no release ${repository}@99.0.0`);
    const plain = await runCli(['push', `${repository}@${latest.release}`, registry.place, '--bundles', DIST]);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('a plain-HTTP registry needs --insecure');
  }, 30_000);
});

describe.skipIf(!hasDockerRegistry)('a registry behind basic auth', () => {
  let registry: DockerRegistry;
  beforeAll(async () => {
    registry = await startDockerRegistry({ auth: { username: 'ci', password: 'correct horse' } });
  }, 30_000);
  afterAll(() => registry?.stop());

  it('takes a push and pull with --username and --password-stdin, and says what is missing or wrong otherwise', async () => {
    const target = `${repository}@${latest.release}`;
    const pushed = await runCli(
      ['push', target, registry.place, '--insecure', '--bundles', DIST, '--username', 'ci', '--password-stdin'],
      'correct horse\n',
    );
    expect(pushed.code, pushed.stderr).toBe(0);
    const pulled = await pullInto(registry.place, latest, tempDir(), ['--username', 'ci', '--password-stdin'], 'correct horse');
    expect(pulled.code, pulled.stderr).toBe(0);
    const anonymous = await runCli(['push', target, registry.place, '--insecure', '--bundles', DIST]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.stderr).toContain('asks for a user name and password; none were given');
    const wrong = await runCli(
      ['push', target, registry.place, '--insecure', '--bundles', DIST, '--username', 'ci', '--password-stdin'],
      'wrong',
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/refused .* \(401\): as ci/);
  }, 60_000);
});

describe.skipIf(!hasDockerRegistry)('a registry behind token authentication', () => {
  let tokens: TokenService;
  let registry: DockerRegistry;
  const user = { username: 'ci', password: 'token please' };
  beforeAll(async () => {
    tokens = await startTokenService(tempDir(), user);
    registry = await startDockerRegistry({ token: tokens.auth });
  }, 30_000);
  afterAll(async () => {
    await registry?.stop();
    await tokens?.close();
  });

  it('gets a Bearer token from the realm the registry names, for the scope each request needs', async () => {
    const env = { ...process.env, REGISTRY_USERNAME: user.username, REGISTRY_PASSWORD: user.password };
    const target = `${repository}/${latest.apiVersion}@${latest.release}`;
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      const pushed = await runCli(['push', target, registry.place, '--insecure', '--bundles', DIST]);
      expect(pushed.code, pushed.stderr).toBe(0);
      const pulled = await pullInto(registry.place, latest, tempDir());
      expect(pulled.code, pulled.stderr).toBe(0);
    } finally {
      process.env = saved;
    }
    const name = `facetform/${repository}/${latest.apiVersion}`;
    // A push's scope may name its actions in either order (the CI run of 2026-11-27 got another than pull,push).
    expect(tokens.issued, JSON.stringify(tokens.issued)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^repository:${name}:(pull,push|push,pull)$`))]),
    );
    expect(tokens.issued).toContain(`repository:${name}:pull`);
    const refused = await pullInto(registry.place, latest, tempDir());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused a token');
  }, 60_000);
});

describe.skipIf(!hasDockerRegistry)('a registry that answers what no registry should', () => {
  let registry: DockerRegistry;
  let hostile: HostileRegistry;
  const name = (apiVersion: string) => `hostile/${repository}/${apiVersion}`;
  const place = () => `oci://${hostile.host}/hostile`;
  /** The manifest the real registry holds for a release, to be answered changed. */
  const manifestOf = async (entry: Entry) =>
    (await new RegistryClient(registry.host, { insecure: true }).pullManifest(name(entry.apiVersion), entry.release))!.manifest;
  const pull = (entry: Entry) => pullInto(place(), entry, tempDir());
  beforeAll(async () => {
    registry = await startDockerRegistry();
    hostile = await startHostileRegistry(registry.host);
    const pushed = await runCli(['push', repository, `oci://${registry.host}/hostile`, '--insecure', '--bundles', DIST]);
    expect(pushed.code, pushed.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await hostile?.close();
    await registry?.stop();
  });

  it('refuses a manifest of the wrong shape, a file longer than its manifest says, and a release over the size limit, each saying why', async () => {
    const path = `/v2/${name(latest.apiVersion)}/manifests/${latest.release}`;
    hostile.lie(path, JSON.stringify({ schemaVersion: 2, artifactType: BUNDLE_ARTIFACT_TYPE, layers: { x: 1 } }));
    const shape = await pull(latest);
    expect(shape.code).toBe(1);
    expect(shape.stderr).toContain('with something that is not an OCI manifest or index');
    const manifest = await manifestOf(latest);
    manifest.layers![0]!.size -= 1;
    hostile.lie(path, JSON.stringify(manifest));
    const shorter = await pull(latest);
    expect(shorter.code).toBe(1);
    expect(shorter.stderr).toContain(`more than the ${manifest.layers![0]!.size} bytes allowed`);
    manifest.layers![0]!.size = 65 * 1024 * 1024;
    hostile.lie(path, JSON.stringify(manifest));
    const huge = await pull(latest);
    expect(huge.code).toBe(1);
    expect(huge.stderr).toMatch(/its files are \d+ bytes in all, more than the \d+ a release may have/);
  }, 60_000);

  it('a server refuses one bad release alone: it pulls the others and the registry stays reachable', async () => {
    hostile.lie(`/v2/${name(latest.apiVersion)}/manifests/${latest.release}`, '{"schemaVersion":2,"layers":"garbage"}');
    const folder = tempDir();
    const follower = new RegistryFollower({
      from: { place: parsePlace(place()), insecure: true, pollMs: 60_000, trustKeyFile: undefined, repositories: undefined },
      credentials: undefined,
      distDir: folder,
      logger: pino({ level: 'silent' }),
      onAdded: () => undefined,
    });
    await follower.poll();
    expect(follower.status).toMatchObject({ reachable: true, polls: { ok: 1, failed: 0 }, pulled: releases.length - 1 });
    expect(Object.keys(follower.status.refused)).toEqual([`${hostile.host}/${name(latest.apiVersion)}:${latest.release}`]);
    expect(loadBundles(folder).map((loaded) => loaded.bundle.repository.release)).toEqual(
      releases.slice(0, -1).map((entry) => entry.release),
    );
  }, 60_000);
});

describe.skipIf(!hasDockerRegistry)('a registry over HTTPS', () => {
  let registry: DockerRegistry;
  let certFile: string;
  beforeAll(async () => {
    const made = selfSignedCertificate(tempDir(), 'registry', '127.0.0.1', ['subjectAltName=IP:127.0.0.1']);
    certFile = made.certFile;
    registry = await startDockerRegistry({ tls: made });
  }, 30_000);
  afterAll(() => registry?.stop());

  /** The CLI as its own process: NODE_EXTRA_CA_CERTS is read when Node starts. */
  const facetform = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [path.join(ROOT, 'bin/facetform.js'), ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
    });

  it('pushes and pulls over HTTPS by default, trusting a private CA from NODE_EXTRA_CA_CERTS, and says what to do without it', () => {
    const target = `${repository}/${latest.apiVersion}@${latest.release}`;
    const place = `oci://${registry.host}/facetform`;
    const untrusted = facetform(['push', target, place, '--bundles', DIST]);
    expect(untrusted.status).toBe(1);
    expect(untrusted.stderr).toContain('needs that CA in NODE_EXTRA_CA_CERTS');
    const pushed = facetform(['push', target, place, '--bundles', DIST], { NODE_EXTRA_CA_CERTS: certFile });
    expect(pushed.status, pushed.stderr).toBe(0);
    const pulled = facetform(['pull', target, place, '--bundles', tempDir()], { NODE_EXTRA_CA_CERTS: certFile });
    expect(pulled.status, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain(latest.digest);
  }, 60_000);
});
