/**
 * Answers no registry should give, for the hostile registry (hostile-registry.ts): lists whose pages
 * link to themselves or go on without end, and an error whose body never ends (issue 32).
 */
import type { LyingHandler } from './hostile-registry.js';

/** A page of a list (`repositories` of the catalog, or `tags`) of about `bytes` bytes of names no one follows. */
function pageBody(list: 'repositories' | 'tags', bytes: number): Buffer {
  const names: string[] = [];
  for (let size = 0, count = 0; size < bytes; count++) {
    const name = list === 'tags' ? `0.0.${count}-lie` : `lies-elsewhere/${String(count).padStart(12, '0')}`;
    names.push(name);
    size += name.length + 3;
  }
  return Buffer.from(JSON.stringify(list === 'tags' ? { name: 'lie', tags: names } : { repositories: names }));
}

/**
 * Pages of `bytes` bytes each (0: empty lists), whose `Link: <…>; rel="next"` names either the page
 * itself ('itself') or one more page, without end ('endless').
 */
export function linkedPages(list: 'repositories' | 'tags', bytes: number, next: 'itself' | 'endless'): LyingHandler {
  const body = pageBody(list, bytes);
  return (request, response) => {
    const url = new URL(request.url!, 'http://localhost');
    const page = Number(url.searchParams.get('page') ?? '0');
    const link = next === 'itself' ? `${url.pathname}${url.search}` : `${url.pathname}?page=${page + 1}`;
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, link: `<${link}>; rel="next"` });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}

/** A 500 whose body never ends: written as fast as the client reads, until it hangs up. `sent` counts the bytes. */
export function endlessError(sent: { bytes: number }): LyingHandler {
  const chunk = Buffer.from(`{"errors":[{"code":"UNKNOWN","message":"${'x'.repeat(64 * 1024)}`);
  return (_request, response) => {
    response.writeHead(500, { 'content-type': 'application/json' });
    const write = (): void => {
      while (!response.destroyed) {
        sent.bytes += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', write);
          return;
        }
      }
    };
    write();
  };
}
