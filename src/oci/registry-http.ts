/**
 * One registry's HTTP: a request authorized as the registry asks (registry-auth.ts), a failure that
 * could not reach it said with a hint at the usual cause, and an answer that was not the one wanted
 * turned into a RegistryError with the registry's own words. The calls of the distribution API
 * (blob-transfer.ts, manifest-transfer.ts, listings.ts, referrers.ts) all go through it.
 */
import { errorWords } from './bounded-read.js';
import { type Credentials, RegistryLogin } from './registry-auth.js';
import { RegistryError, RegistryUnreachableError } from './registry-errors.js';

export interface RegistryOptions {
  /** Plain HTTP instead of HTTPS: only when asked (`--insecure`, BUNDLES_FROM_INSECURE). */
  insecure?: boolean;
  credentials?: Credentials | undefined;
  /** Milliseconds one request may take. */
  timeoutMs?: number;
  /** Bytes per PATCH of a chunked upload; a blob no larger goes up in one PUT. */
  chunkBytes?: number;
}

export class RegistryHttp {
  readonly base: string;
  private readonly login: RegistryLogin;

  constructor(
    readonly registry: string,
    readonly options: RegistryOptions = {},
  ) {
    this.base = `${options.insecure ? 'http' : 'https'}://${registry}`;
    this.login = new RegistryLogin(registry, options.credentials, options.timeoutMs ?? 30_000);
  }

  /** One request, authorized as the registry's challenge asks; the body is bytes so that it can be sent again. */
  async request(
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
    let response = await send(this.login.known(scope));
    if (response.status !== 401) return response;
    const request = `${method} ${new URL(url).pathname}`;
    response = await send(await this.login.challenged(scope, request, response));
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw this.login.refused(request, response.status);
    }
    return response;
  }

  /** An error for an answer that was not the one wanted, with the registry's own error codes and messages. */
  async failure(what: string, response: Response): Promise<RegistryError> {
    const said = await errorWords(response);
    return new RegistryError(`${this.registry}: ${what} failed (${response.status}${said === '' ? '' : `: ${said}`})`, response.status);
  }

  /** The URL of `rest` (`blobs/…`, `manifests/…`, `tags/list`) in repository `name`. */
  url(name: string, rest: string): string {
    return `${this.base}/v2/${name}/${rest}`;
  }

  /** Where an upload goes on: its Location, resolved against the registry. */
  location(response: Response): string {
    const location = response.headers.get('location');
    if (location === null) throw new RegistryError(`${this.registry} started an upload but gave no Location`);
    return new URL(location, this.base).href;
  }
}
