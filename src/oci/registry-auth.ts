/**
 * Logging in to a registry the way its 401 challenge asks: Basic from the credentials, or a Bearer
 * token that the challenge's realm issues for one scope (the distribution spec's token auth). The
 * answer is kept per scope, so that a scope costs one token request, not one per call.
 */
import { MAX_SHORT_ANSWER_BYTES, readJson } from './bounded-read.js';
import { RegistryError, RegistryUnreachableError } from './registry-errors.js';

export interface Credentials {
  username: string;
  password: string;
}

interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** `Bearer realm="…",service="…"` → its parameters. */
function challengeOf(header: string): Challenge {
  const [scheme = '', ...rest] = header.trim().split(/\s+/);
  const params: Record<string, string> = {};
  for (const match of rest.join(' ').matchAll(/([a-zA-Z_]+)="([^"]*)"/g)) params[match[1]!.toLowerCase()] = match[2]!;
  return { scheme: scheme.toLowerCase(), params };
}

export class RegistryLogin {
  /** Authorization per scope: a Bearer token once fetched, or Basic once a registry asked for it. */
  private readonly authorizations = new Map<string, string>();

  constructor(
    private readonly registry: string,
    private readonly credentials: Credentials | undefined,
    private readonly timeoutMs: number,
  ) {}

  /** The Authorization header this scope got last, if any. */
  known(scope: string): string | undefined {
    return this.authorizations.get(scope);
  }

  /** After a 401 to `request` (`METHOD /path`): the Authorization its challenge asks for, kept for the scope. */
  async challenged(scope: string, request: string, response: Response): Promise<string> {
    const header = response.headers.get('www-authenticate');
    await response.body?.cancel();
    if (header === null) throw new RegistryError(`${this.registry} refused ${request} (401) and said not how to log in`, 401);
    const authorization = await this.authorize(scope, challengeOf(header));
    this.authorizations.set(scope, authorization);
    return authorization;
  }

  /** A request refused although authorized as the registry asked: whose login to check. */
  refused(request: string, status: number): RegistryError {
    const who =
      this.credentials === undefined
        ? 'no credentials were given'
        : `as ${this.credentials.username}; check the user name and password (REGISTRY_USERNAME and REGISTRY_PASSWORD, or --username and --password-stdin)`;
    return new RegistryError(`${this.registry} refused ${request} (${status}): ${who}`, status);
  }

  /** The Authorization header a challenge asks for: Basic from the credentials, or a Bearer token from the realm. */
  private async authorize(scope: string, challenge: Challenge): Promise<string> {
    const { credentials } = this;
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
        signal: AbortSignal.timeout(this.timeoutMs),
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
}
