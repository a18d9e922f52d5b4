/**
 * The OCI distribution API, as much of it as pushing and pulling a release needs: blobs (chunked
 * uploads), manifests, tags, the catalog and referrers, with basic and token authentication. No
 * client library on npm is kept up for this (issue 21), so the protocol lives here, in one module.
 */
import { createHash } from 'node:crypto';
import { errorWords, Listing, MAX_ANSWER_BYTES, MAX_SHORT_ANSWER_BYTES, readAtMost, readJson } from './bounded-read.js';
import { RegistryError, RegistryUnreachableError } from './registry-errors.js';

export interface Credentials {
  username: string;
  password: string;
}

export interface RegistryOptions {
  /** Plain HTTP instead of HTTPS: only when asked (`--insecure`, BUNDLES_FROM_INSECURE). */
  insecure?: boolean;
  credentials?: Credentials | undefined;
  /** Milliseconds one request may take. */
  timeoutMs?: number;
  /** Bytes per PATCH of a chunked upload; a blob no larger goes up in one PUT. */
  chunkBytes?: number;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  artifactType?: string;
  annotations?: Record<string, string>;
}

export interface Manifest {
  schemaVersion: 2;
  mediaType: string;
  artifactType?: string;
  config?: Descriptor;
  layers?: Descriptor[];
  manifests?: Descriptor[];
  subject?: Descriptor;
  annotations?: Record<string, string>;
}

export const MANIFEST_MEDIA_TYPE = 'application/vnd.oci.image.manifest.v1+json';
export const INDEX_MEDIA_TYPE = 'application/vnd.oci.image.index.v1+json';

export { isOutage, RegistryError, RegistryOverrunError, RegistryUnreachableError } from './registry-errors.js';

export const sha256Digest = (bytes: Uint8Array): string => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

/** `Bearer realm="…",service="…"` → its parameters. */
function challengeOf(header: string): { scheme: string; params: Record<string, string> } {
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const params: Record<string, string> = {};
  for (const match of rest.join(' ').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)) params[match[1]!.toLowerCase()] = match[2]!;
  return { scheme: scheme.toLowerCase(), params };
}

export class RegistryClient {
  readonly base: string;
  /** Authorization per scope: a Bearer token once fetched, or Basic once a registry asked for it. */
  private readonly authorizations = new Map<string, string>();

  constructor(
    readonly registry: string,
    private readonly options: RegistryOptions = {},
  ) {
    this.base = `${options.insecure ? 'http' : 'https'}://${registry}`;
  }

  /** One request, authorized as the registry's challenge asks; the body is bytes so that it can be sent again. */
  private async request(
    scope: string,
    method: string,
    url: string,
    init: { headers?: Record<string, string>; body?: Uint8Array } = {},
  ): Promise<Response> {
    const send = async (authorization: string | undefined): Promise<Response> => {
      const headers = { ...init.headers, ...(authorization === undefined ? {} : { authorization }) };
      try {
        return await fetch(url, {
          method,
          headers,
          ...(init.body === undefined ? {} : { body: init.body as unknown as BodyInit }),
          redirect: 'follow',
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const why = cause?.code ?? cause?.message ?? (error as Error).message;
        const hint = /CERT|SELF_SIGNED/i.test(String(why))
          ? ' (a registry whose certificate a private CA signed needs that CA in NODE_EXTRA_CA_CERTS)'
          : !this.options.insecure && /SSL|EPROTO|ECONNRESET/i.test(String(why))
            ? ' (a plain-HTTP registry needs --insecure)'
            : '';
        throw new RegistryUnreachableError(`cannot reach ${this.registry}: ${method} ${new URL(url).pathname} failed (${why})${hint}`);
      }
    };
    let response = await send(this.authorizations.get(scope));
    if (response.status !== 401) return response;
    const header = response.headers.get('www-authenticate');
    await response.body?.cancel();
    if (header === null)
      throw new RegistryError(`${this.registry} refused ${method} ${new URL(url).pathname} (401) and said not how to log in`, 401);
    const authorization = await this.authorize(scope, challengeOf(header));
    this.authorizations.set(scope, authorization);
    response = await send(authorization);
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      const who =
        this.options.credentials === undefined
          ? 'no credentials were given'
          : `as ${this.options.credentials.username}; check the user name and password (REGISTRY_USERNAME and REGISTRY_PASSWORD, or --username and --password-stdin)`;
      throw new RegistryError(`${this.registry} refused ${method} ${new URL(url).pathname} (${response.status}): ${who}`, response.status);
    }
    return response;
  }

  /** The Authorization header a challenge asks for: Basic from the credentials, or a Bearer token from the realm. */
  private async authorize(scope: string, challenge: { scheme: string; params: Record<string, string> }): Promise<string> {
    const { credentials } = this.options;
    const basic =
      credentials === undefined ? undefined : `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
    if (challenge.scheme === 'basic') {
      if (basic === undefined) throw new RegistryError(`${this.registry} asks for a user name and password; none were given`, 401);
      return basic;
    }
    if (challenge.scheme !== 'bearer' || challenge.params.realm === undefined)
      throw new RegistryError(`${this.registry} asks for authentication this client does not speak (${challenge.scheme})`, 401);
    const realm = new URL(challenge.params.realm);
    if (challenge.params.service !== undefined) realm.searchParams.set('service', challenge.params.service);
    realm.searchParams.set('scope', challenge.params.scope ?? scope);
    let response: Response;
    try {
      response = await fetch(realm, {
        headers: basic === undefined ? {} : { authorization: basic },
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw new RegistryUnreachableError(
        `cannot reach the token service ${realm.origin} of ${this.registry} (${(error as Error).message})`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new RegistryError(`the token service of ${this.registry} refused a token for ${scope} (${response.status})`, response.status);
    }
    const body = (await readJson(response, 'a token', MAX_SHORT_ANSWER_BYTES).catch(() => ({}))) as {
      token?: string;
      access_token?: string;
    };
    const token = body.token ?? body.access_token;
    if (typeof token !== 'string') throw new RegistryError(`the token service of ${this.registry} answered no token`);
    return `Bearer ${token}`;
  }

  /** An error for an answer that was not the one wanted, with the registry's own error codes and messages. */
  private async failure(what: string, response: Response): Promise<RegistryError> {
    const said = await errorWords(response);
    return new RegistryError(`${this.registry}: ${what} failed (${response.status}${said === '' ? '' : `: ${said}`})`, response.status);
  }

  private url(name: string, rest: string): string {
    return `${this.base}/v2/${name}/${rest}`;
  }

  async hasBlob(name: string, digest: string): Promise<boolean> {
    const response = await this.request(`repository:${name}:pull`, 'HEAD', this.url(name, `blobs/${digest}`));
    if (response.status === 404) return false;
    if (response.ok) return true;
    throw await this.failure(`HEAD blob ${digest} of ${name}`, response);
  }

  /** Uploads a blob unless the registry has it: in one PUT when small, else in chunks (POST, PATCH…, PUT). */
  async pushBlob(name: string, bytes: Uint8Array, digest = sha256Digest(bytes)): Promise<void> {
    if (await this.hasBlob(name, digest)) return;
    const scope = `repository:${name}:pull,push`;
    const started = await this.request(scope, 'POST', this.url(name, 'blobs/uploads/'), { headers: { 'content-length': '0' } });
    if (started.status !== 202) throw await this.failure(`starting an upload to ${name}`, started);
    await started.body?.cancel();
    let location = this.location(started);
    const chunk = this.options.chunkBytes ?? 4 * 1024 * 1024;
    let body: Uint8Array | undefined = bytes;
    if (bytes.length > chunk) {
      for (let offset = 0; offset < bytes.length; offset += chunk) {
        const part = bytes.subarray(offset, Math.min(offset + chunk, bytes.length));
        const patched = await this.request(scope, 'PATCH', location, {
          headers: {
            'content-type': 'application/octet-stream',
            'content-range': `${offset}-${offset + part.length - 1}`,
            'content-length': String(part.length),
          },
          body: part,
        });
        if (patched.status !== 202) throw await this.failure(`uploading bytes ${offset}+ of ${digest} to ${name}`, patched);
        await patched.body?.cancel();
        location = this.location(patched);
      }
      body = undefined;
    }
    const finish = new URL(location);
    finish.searchParams.set('digest', digest);
    const put = await this.request(scope, 'PUT', finish.href, {
      headers: { 'content-type': 'application/octet-stream', 'content-length': String(body?.length ?? 0) },
      ...(body === undefined ? {} : { body }),
    });
    if (put.status !== 201) throw await this.failure(`finishing the upload of ${digest} to ${name}`, put);
    await put.body?.cancel();
  }

  private location(response: Response): string {
    const location = response.headers.get('location');
    if (location === null) throw new RegistryError(`${this.registry} started an upload but gave no Location`);
    return new URL(location, this.base).href;
  }

  /** A blob's bytes, checked against its digest: a registry that answers other bytes is refused. */
  async pullBlob(name: string, digest: string, maxBytes: number): Promise<Buffer> {
    const response = await this.request(`repository:${name}:pull`, 'GET', this.url(name, `blobs/${digest}`));
    if (!response.ok) throw await this.failure(`GET blob ${digest} of ${name}`, response);
    const bytes = await readAtMost(response, maxBytes, `blob ${digest} of ${name}`);
    const actual = sha256Digest(bytes);
    if (actual !== digest) throw new RegistryError(`${this.registry} answered blob ${digest} of ${name} with other content (${actual})`);
    return bytes;
  }

  /** Puts a manifest under a tag or its digest; returns its digest and whether the registry read its subject (referrers API). */
  async pushManifest(name: string, reference: string, manifest: Manifest): Promise<{ digest: string; subjectProcessed: boolean }> {
    const bytes = Buffer.from(JSON.stringify(manifest));
    const response = await this.request(`repository:${name}:pull,push`, 'PUT', this.url(name, `manifests/${reference}`), {
      headers: { 'content-type': manifest.mediaType },
      body: bytes,
    });
    if (response.status !== 201) throw await this.failure(`PUT manifest ${reference} of ${name}`, response);
    await response.body?.cancel();
    return { digest: sha256Digest(bytes), subjectProcessed: response.headers.has('oci-subject') };
  }

  /** The manifest a tag or digest names, with its digest, or undefined when there is none. */
  async pullManifest(name: string, reference: string): Promise<{ manifest: Manifest; digest: string; bytes: Buffer } | undefined> {
    const response = await this.request(`repository:${name}:pull`, 'GET', this.url(name, `manifests/${reference}`), {
      headers: { accept: `${MANIFEST_MEDIA_TYPE}, ${INDEX_MEDIA_TYPE}` },
    });
    if (response.status === 404) {
      await response.body?.cancel();
      return undefined;
    }
    if (!response.ok) throw await this.failure(`GET manifest ${reference} of ${name}`, response);
    const bytes = await readAtMost(response, MAX_ANSWER_BYTES, `manifest ${reference} of ${name}`);
    const digest = sha256Digest(bytes);
    if (reference.startsWith('sha256:') && digest !== reference)
      throw new RegistryError(`${this.registry} answered manifest ${reference} of ${name} with other content (${digest})`);
    let manifest: Manifest;
    try {
      manifest = JSON.parse(bytes.toString('utf8')) as Manifest;
    } catch {
      throw new RegistryError(`${this.registry} answered manifest ${reference} of ${name} with something that is not JSON`);
    }
    if (!isManifest(manifest))
      throw new RegistryError(
        `${this.registry} answered manifest ${reference} of ${name} with something that is not an OCI manifest or index`,
      );
    return { manifest, digest, bytes };
  }

  /** The digest a tag names, or undefined when the tag does not exist. */
  async manifestDigest(name: string, reference: string): Promise<string | undefined> {
    const response = await this.request(`repository:${name}:pull`, 'HEAD', this.url(name, `manifests/${reference}`), {
      headers: { accept: `${MANIFEST_MEDIA_TYPE}, ${INDEX_MEDIA_TYPE}` },
    });
    if (response.status === 404) return undefined;
    if (!response.ok) throw await this.failure(`HEAD manifest ${reference} of ${name}`, response);
    const digest = response.headers.get('docker-content-digest');
    if (digest !== null) return digest;
    return (await this.pullManifest(name, reference))?.digest;
  }

  /** Every tag of a repository, following pagination; none when the repository does not exist. */
  async tags(name: string): Promise<string[]> {
    const tags: string[] = [];
    const listing = new Listing(this.registry, this.base, `the list of the tags of ${name}`, this.url(name, 'tags/list'));
    while (listing.url !== undefined) {
      const response = await this.request(`repository:${name}:pull`, 'GET', listing.url);
      if (response.status === 404) {
        await response.body?.cancel();
        return tags;
      }
      if (!response.ok) throw await this.failure(`listing the tags of ${name}`, response);
      const page = (await listing.page(response)) as { tags?: unknown };
      if (page.tags !== null && page.tags !== undefined && !(Array.isArray(page.tags) && page.tags.every((tag) => typeof tag === 'string')))
        throw new RegistryError(`${this.registry} answered the tags of ${name} with something that is not a list of tags`);
      for (const tag of (page.tags as string[] | null) ?? []) tags.push(tag); // not push(...): a page of 100,000 overflows the stack
    }
    return tags;
  }

  /** Every repository the registry lists (`/v2/_catalog`), following pagination. */
  async catalog(): Promise<string[]> {
    const names: string[] = [];
    const listing = new Listing(this.registry, this.base, 'the list of its repositories (/v2/_catalog)', `${this.base}/v2/_catalog`);
    while (listing.url !== undefined) {
      const response = await this.request('registry:catalog:*', 'GET', listing.url);
      if (!response.ok) throw await this.failure('listing its repositories (/v2/_catalog)', response);
      const page = (await listing.page(response)) as { repositories?: unknown };
      if (!Array.isArray(page.repositories) || !page.repositories.every((entry) => typeof entry === 'string'))
        throw new RegistryError(`${this.registry} answered /v2/_catalog with something that is not a list of repositories`);
      for (const name of page.repositories as string[]) names.push(name);
    }
    return names;
  }

  /**
   * The referrers of a manifest of `artifactType`: from the referrers API where the registry has it,
   * else from the OCI 1.1 fallback tag `sha256-<hex>` (Debian's registry 2.8 has only that).
   */
  async referrers(name: string, digest: string, artifactType: string): Promise<Descriptor[]> {
    const url = new URL(this.url(name, `referrers/${digest}`));
    url.searchParams.set('artifactType', artifactType);
    const response = await this.request(`repository:${name}:pull`, 'GET', url.href, { headers: { accept: INDEX_MEDIA_TYPE } });
    let index: Manifest | undefined;
    if (response.ok && (response.headers.get('content-type') ?? '').startsWith(INDEX_MEDIA_TYPE)) {
      const answered = await readJson(response, `the referrers of ${digest}`);
      if (!isManifest(answered))
        throw new RegistryError(`${this.registry} answered the referrers of ${digest} in ${name} with something that is not an OCI index`);
      index = answered;
    } else {
      await response.body?.cancel();
      if (response.ok || response.status === 404 || response.status === 400 || response.status === 405)
        index = (await this.pullManifest(name, fallbackTag(digest)))?.manifest;
      else throw await this.failure(`listing the referrers of ${digest} in ${name}`, response);
    }
    return (index?.manifests ?? []).filter((descriptor) => descriptor?.artifactType === artifactType);
  }

  /** Adds a referrer to the fallback tag's index, for a registry that did not read the subject itself. */
  async addFallbackReferrer(name: string, subject: string, referrer: Descriptor): Promise<void> {
    const tag = fallbackTag(subject);
    const existing = (await this.pullManifest(name, tag))?.manifest;
    const manifests = (existing?.manifests ?? []).filter((descriptor) => descriptor.digest !== referrer.digest);
    await this.pushManifest(name, tag, { schemaVersion: 2, mediaType: INDEX_MEDIA_TYPE, manifests: [...manifests, referrer] });
  }
}

/** A descriptor we can follow: a media type, a sha256 digest (the only one checked here) and a size. */
const isDescriptor = (value: unknown): value is Descriptor => {
  const candidate = value as Partial<Descriptor> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.mediaType === 'string' &&
    typeof candidate.digest === 'string' &&
    /^sha256:[0-9a-f]{64}$/.test(candidate.digest) &&
    Number.isSafeInteger(candidate.size) &&
    candidate.size! >= 0 &&
    (candidate.annotations === undefined || (typeof candidate.annotations === 'object' && candidate.annotations !== null))
  );
};

/** An OCI manifest or index as far as this client reads one: every descriptor it names is one it can follow. */
function isManifest(value: unknown): value is Manifest {
  const candidate = value as Partial<Manifest> | null;
  if (typeof candidate !== 'object' || candidate === null || candidate.schemaVersion !== 2) return false;
  const list = (descriptors: unknown) => descriptors === undefined || (Array.isArray(descriptors) && descriptors.every(isDescriptor));
  const one = (descriptor: unknown) => descriptor === undefined || isDescriptor(descriptor);
  const annotations = candidate.annotations;
  return (
    list(candidate.layers) &&
    list(candidate.manifests) &&
    one(candidate.config) &&
    one(candidate.subject) &&
    (annotations === undefined || (typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations)))
  );
}

/** The OCI 1.1 referrers tag schema: `sha256:<hex>` → `sha256-<hex>`. */
export const fallbackTag = (digest: string): string => digest.replace(':', '-');
