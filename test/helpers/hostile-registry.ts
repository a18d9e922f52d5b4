/**
 * A registry that lies: a proxy in front of a real docker-registry that answers chosen paths with
 * chosen bodies (what a registry 2.8 itself refuses to store: manifests of the wrong shape, lists that
 * are not lists) or chosen handlers (lying-answers.ts: lists without end, endless errors), and passes
 * every other request through. It counts the requests it gets, by path.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Answers one request as it likes. */
export type LyingHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface HostileRegistry {
  host: string;
  /** Answers GET and HEAD of `path` (e.g. /v2/NAME/manifests/TAG) with `body` as `contentType`. */
  lie(path: string, body: string, contentType?: string): void;
  /** Answers every request for `path`, whatever its query, with `handler`. */
  answer(path: string, handler: LyingHandler): void;
  /** Passes every request through again. */
  honest(): void;
  /** Requests received for `path` so far. */
  requests(path: string): number;
  close(): Promise<void>;
}

export async function startHostileRegistry(upstream: string): Promise<HostileRegistry> {
  const lies = new Map<string, { body: string; contentType: string }>();
  const handlers = new Map<string, LyingHandler>();
  const counts = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const { pathname } = new URL(request.url!, 'http://localhost');
    counts.set(pathname, (counts.get(pathname) ?? 0) + 1);
    const handler = handlers.get(pathname);
    if (handler !== undefined) return handler(request, response);
    const lie = lies.get(pathname);
    if (lie !== undefined && (request.method === 'GET' || request.method === 'HEAD')) {
      response.writeHead(200, { 'content-type': lie.contentType, 'content-length': Buffer.byteLength(lie.body) });
      response.end(request.method === 'GET' ? lie.body : undefined);
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => name !== 'host' && name !== 'connection'),
      ) as Record<string, string>;
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const answer = await fetch(`http://${upstream}${request.url}`, {
        method: request.method!,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
      });
      const passed: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        if (name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'connection')
          passed[name] = name === 'location' ? value.replace(upstream, host) : value;
      });
      response.writeHead(answer.status, passed);
      response.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    lie: (path, body, contentType = 'application/vnd.oci.image.manifest.v1+json') => void lies.set(path, { body, contentType }),
    answer: (path, handler) => void handlers.set(path, handler),
    honest: () => {
      lies.clear();
      handlers.clear();
    },
    requests: (path) => counts.get(path) ?? 0,
    close: () => {
      server.closeAllConnections(); // an endless answer still being written must not keep it open
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
