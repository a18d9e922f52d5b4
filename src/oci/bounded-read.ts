/**
 * Reading a registry's answers within bounds. A registry may answer anything at any length, and a
 * server that follows it must neither run out of memory nor poll without end for it (issue 32): every
 * bound on what is read from a registry is here, with why it is what it is.
 */
import { RegistryError, RegistryOverrunError } from './registry-errors.js';
import LinkHeader from 'http-link-header';

/** One JSON answer (a manifest, a page of a list): the 4 MiB registries themselves allow a manifest. */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** An error or a token: a line or two of JSON; a registry's words past this are not read. */
export const MAX_SHORT_ANSWER_BYTES = 64 * 1024;
/** Pages of one list: 100,000 repositories at the 100 a page registries give; a longer list is one going round. */
export const MAX_LISTING_PAGES = 1000;
/**
 * Bytes of one list, all its pages: the names of some 100,000 repositories or tags. Parsed, a list
 * takes about ten times its bytes of memory until the poll ends (16 MiB of tags took a server to 294 MB).
 */
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;

/** The body of `response`, refused (RegistryError) once past `maxBytes`: what is past it is never read. */
export async function readAtMost(response: Response, maxBytes: number, what: string): Promise<Buffer> {
  const length = Number(response.headers.get('content-length') ?? '0');
  if (length > maxBytes) {
    await response.body?.cancel();
    throw new RegistryError(`${what} is ${length} bytes: more than the ${maxBytes} bytes allowed`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  if (response.body === null) return Buffer.alloc(0);
  // Leaving the loop (the throw) cancels the body: the rest of an endless answer is not read.
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.length;
    if (total > maxBytes) throw new RegistryError(`${what} is more than the ${maxBytes} bytes allowed`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

function jsonObject(bytes: Buffer, what: string): unknown {
  try {
    const value = JSON.parse(bytes.toString('utf8')) as unknown;
    if (value !== null && typeof value === 'object') return value;
  } catch {
    // said below
  }
  throw new RegistryError(`the registry answered ${what} with something that is not a JSON object`);
}

export async function readJson(response: Response, what: string, maxBytes = MAX_ANSWER_BYTES): Promise<unknown> {
  return jsonObject(await readAtMost(response, maxBytes, what), what);
}

/** The registry's own words in an error answer (its error codes and messages, or the start of its text), read within bounds. */
export async function errorWords(response: Response): Promise<string> {
  let text: string;
  try {
    text = (await readAtMost(response, MAX_SHORT_ANSWER_BYTES, 'its error')).toString('utf8');
  } catch (error) {
    return error instanceof RegistryError ? `an error of more than ${MAX_SHORT_ANSWER_BYTES} bytes, not read` : '';
  }
  try {
    const errors = (JSON.parse(text) as { errors?: Array<{ code?: string; message?: string }> }).errors ?? [];
    return errors.map((error) => [error.code, error.message].filter(Boolean).join(': ')).join('; ');
  } catch {
    return text.slice(0, 200).trim();
  }
}

/** The `Link: <…>; rel="next"` of a paginated list, resolved against `base`. */
function nextPage(response: Response, base: string): string | undefined {
  const header = response.headers.get('link');
  if (header === null) return undefined;
  const [next] = LinkHeader.parse(header).rel('next');
  return next === undefined ? undefined : new URL(next.uri, base).href;
}

/** The next page, or a RegistryError for a Link header RFC 8288 does not allow: pages after it would be lost unsaid. */
function nextPageOf(response: Response, base: string, where: string, number: number): string | undefined {
  try {
    return nextPage(response, base);
  } catch (error) {
    throw new RegistryError(`${where}: page ${number} has a Link header that is not RFC 8288's (${(error as Error).message})`);
  }
}

/**
 * One paginated list (`/v2/_catalog`, `tags/list`) as it is read, page by page. A page that links back
 * to one read already, an empty page that links to a next one (no registry sends one: it links on only
 * from a full page, and a lie of empty pages would cost MAX_LISTING_PAGES requests a poll), or
 * a list past MAX_LISTING_PAGES pages or MAX_LISTING_BYTES bytes, ends it with a RegistryOverrunError:
 * a registry that lists without end is an outage, not a poll that never ends.
 */
export class Listing {
  /** The page to read next; undefined once the last is read. */
  url: string | undefined;
  /** The pages read, by URL: their numbers, from 1. */
  private readonly pages = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly registry: string,
    private readonly base: string,
    private readonly what: string,
    first: string,
    /** The page's member that holds the list's entries: `repositories` or `tags`. */
    private readonly member: string,
  ) {
    this.url = first;
  }

  /** The JSON object of the page at `url`, which `response` answered; moves `url` on to the next page. */
  async page(response: Response): Promise<unknown> {
    const number = this.pages.size + 1;
    this.pages.set(this.url!, number);
    const room = MAX_LISTING_BYTES - this.bytes;
    let bytes: Buffer;
    try {
      bytes = await readAtMost(response, Math.min(MAX_ANSWER_BYTES, room), `a page of ${this.what}`);
    } catch (error) {
      if (!(error instanceof RegistryError)) throw error;
      throw this.overrun(
        room < MAX_ANSWER_BYTES
          ? `${this.what} runs past ${MAX_LISTING_BYTES} bytes in ${number} pages`
          : `page ${number} of ${this.what} is more than ${MAX_ANSWER_BYTES} bytes`,
      );
    }
    this.bytes += bytes.length;
    const page = jsonObject(bytes, this.what) as Record<string, unknown>;
    const next = nextPageOf(response, this.base, `${this.registry}: ${this.what}`, number);
    if (next !== undefined) this.checkNext(next, number, page);
    this.url = next;
    return page;
  }

  /** Refuses the link to a next page that a registry telling the truth never sends. */
  private checkNext(next: string, number: number, page: Record<string, unknown>): void {
    const { pathname, search } = new URL(next);
    const again = this.pages.get(next);
    if (again !== undefined) throw this.overrun(`page ${number} of ${this.what} links back to page ${again} (${pathname}${search})`);
    const entries = page[this.member];
    // Not a list at all is for the caller to say; `tags: null` is how a registry lists no tags.
    if (entries === null || entries === undefined || (Array.isArray(entries) && entries.length === 0))
      throw this.overrun(`page ${number} of ${this.what} is empty but links to a next page (${pathname}${search})`);
    if (number >= MAX_LISTING_PAGES) throw this.overrun(`${this.what} runs past ${MAX_LISTING_PAGES} pages`);
  }

  private overrun(how: string): RegistryOverrunError {
    return new RegistryOverrunError(`${this.registry}: ${how}; a registry's list ends, so this one is not read further`);
  }
}
