/**
 * The HTTP server around the app: listen, and on SIGTERM or SIGINT stop accepting, let in-flight
 * requests finish, and close.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, Server as NetServer, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { BundleRegistry } from '../bundle/registry.js';
import { PACKAGE_VERSION } from '../util/package-version.js';
import { ApiKeys } from './api-keys.js';
import { createApp } from './app.js';
import { createMetrics } from './metrics.js';
import { buildOpenApi } from './openapi/document.js';
import {
  defaultOf,
  OPENABLE_ROUTES,
  type OpenRoute,
  type RateLimit,
  readLimits,
  type RequestLimits,
  type ServerTimeouts,
  SETTING,
} from './config.js';
import { InflightBytes } from './inflight-bytes.js';
import { CLIENT_ERRORS } from './problem.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { SchemaFiles } from './schema-files.js';
import type { ServerState } from './state.js';

export interface RunningServer {
  server: Server;
  state: ServerState;
  url: string;
  /** Stops accepting, waits for in-flight requests (at most `timeoutMs`), then resolves. */
  close(timeoutMs?: number): Promise<void>;
}

export interface StateOptions {
  rateLimit?: RateLimit;
  redisUrl?: string | undefined;
  /** The most a request waits for Redis (REDIS_TIMEOUT_MS's default when not given). */
  redisTimeoutMs?: number;
  /** The defaults (settings/limits.ts), but for the ones given. */
  limits?: Partial<RequestLimits>;
  /** Operations routes to answer without a key; none by default. */
  openRoutes?: readonly OpenRoute[];
}

export function createState(registry: BundleRegistry, keys: ApiKeys, logger: Logger, options: StateOptions = {}): ServerState {
  const limits = { ...readLimits({}), ...options.limits };
  const state: ServerState = {
    registry,
    keys,
    logger,
    rateLimiter: new RateLimiter(
      options.rateLimit ?? defaultOf(SETTING.RATE_LIMIT),
      logger,
      options.redisUrl === undefined
        ? undefined
        : { url: options.redisUrl, timeoutMs: options.redisTimeoutMs ?? defaultOf(SETTING.REDIS_TIMEOUT_MS) },
    ),
    // OPEN_ROUTES names only openable routes (its setting refuses others).
    openPaths: new Set((options.openRoutes ?? []).flatMap((route) => OPENABLE_ROUTES[route] ?? [])),
    limits,
    inflight: new InflightBytes(limits.maxInflightBytes),
    metrics: createMetrics(),
    ready: true,
    openapi: perRegistry(
      () => state.registry,
      (registry) => JSON.stringify(buildOpenApi(registry, PACKAGE_VERSION, state.limits)),
    ),
    schemas: perRegistry(
      () => state.registry,
      (registry) => new SchemaFiles(registry.bundles.map((loaded) => loaded.bundle)),
    ),
  };
  state.metrics.followRateLimiter(() => state.rateLimiter.breakerState);
  return state;
}

/** A value made from the registry on first use, and made again only once a reload has replaced the registry. */
function perRegistry<T>(current: () => BundleRegistry, make: (registry: BundleRegistry) => T): () => T {
  let made: { registry: BundleRegistry; value: T } | undefined;
  return () => {
    const registry = current();
    if (made?.registry !== registry) made = { registry, value: make(registry) };
    return made.value;
  };
}

/**
 * Requests Node's HTTP parser refuses before the app sees them (headers too large, malformed
 * request lines, timeouts) also get a problem+json answer, then the connection closes.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const {
    type,
    status,
    title: reason,
    detail,
  } = error.code === 'HPE_HEADER_OVERFLOW' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? CLIENT_ERRORS[error.code] : CLIENT_ERRORS.other;
  const body = JSON.stringify({ type: `/problems/${type}`, title: reason, status, detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** How long idle keep-alive sockets stay open once a drain begins, at most. */
const IDLE_DRAIN_MS = 1000;

export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersMs: defaultOf(SETTING.HEADERS_TIMEOUT_MS),
  requestMs: defaultOf(SETTING.REQUEST_TIMEOUT_MS),
  keepAliveMs: defaultOf(SETTING.KEEP_ALIVE_TIMEOUT_MS),
  stallMs: defaultOf(SETTING.STALL_TIMEOUT_MS),
};

export async function startServer(
  state: ServerState,
  port: number,
  host: string,
  timeouts: ServerTimeouts = DEFAULT_TIMEOUTS,
): Promise<RunningServer> {
  const app = createApp(state);
  // A slow client cannot hold a connection: headers, the whole request and idle keep-alive are timed,
  // and a connection on which no byte moves for stallMs (a client that does not read its answer) is closed.
  const server = createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
  });
  server.timeout = timeouts.stallMs;
  let draining = false;
  // While draining, every answer says Connection: close, so a keep-alive client learns to go elsewhere
  // from an answer instead of from a reset of the socket it is sending on; so does one whose request
  // came before the drain and whose headers are not sent yet (each connection's answer in progress).
  const answer = app.callback();
  const sockets = new Set<Socket>();
  const answering = new WeakMap<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.setHeader('Connection', 'close');
    else answering.set(request.socket, response);
    void answer(request, response);
  });
  const closeInFlight = () => {
    for (const socket of sockets) {
      const response = answering.get(socket);
      if (response !== undefined && !response.headersSent) response.setHeader('Connection', 'close');
    }
  };
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    server,
    state,
    url: `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost === '[::]' ? '[::1]' : shownHost}:${address.port}`,
    close(timeoutMs = 10_000) {
      closing ??= new Promise<void>((resolve) => {
        state.ready = false;
        draining = true;
        closeInFlight();
        const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
        force.unref();
        // Idle keep-alive sockets stay open a moment: a client may be sending on one right now, and
        // gets its answer with Connection: close. Then the ones still idle are closed.
        const idle = setTimeout(() => server.closeIdleConnections(), Math.min(IDLE_DRAIN_MS, timeouts.keepAliveMs, timeoutMs));
        // net.Server's close stops listening and waits for the connections; http.Server's own would
        // first drop every idle keep-alive socket at once.
        NetServer.prototype.close.call(server, () => {
          clearTimeout(force);
          clearTimeout(idle);
          void state.rateLimiter.close().then(resolve);
        });
      });
      return closing;
    },
  };
}
