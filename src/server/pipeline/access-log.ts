/**
 * One structured log line per request: method, route, status, duration, request id, key name. Never
 * the key. The line is the one pino would write for these fields, made by hand from the logger's own
 * level, time and bindings: pino's general serialiser was a tenth of a request's time.
 */
import pino, { type Logger } from 'pino';

export function routeOf(ctx: { _matchedRoute?: string | RegExp }): string {
  return typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : 'unmatched';
}

export interface RequestLogFields {
  method: string;
  route: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The key's name; undefined on public paths, and left out of the line as pino leaves it out. */
  key: string | undefined;
}

/** Text that JSON can hold without escaping: request ids, key names, methods and route patterns are. */
const PLAIN = /^[\w .:#/{}()*?+-]*$/;
const jsonText = (text: string) => (PLAIN.test(text) ? `"${text}"` : JSON.stringify(text));

/** What pino keeps on a logger under its exported symbols: the bindings as JSON text, the time function, the destination. */
const internal = <T>(logger: Logger, symbol: symbol): T => (logger as unknown as Record<symbol, T>)[symbol]!;

/** Writes request lines to the logger's destination, or nothing when its level is above info. */
export function requestLog(logger: Logger): (fields: RequestLogFields) => void {
  const bindings = internal<string>(logger, pino.symbols.chindingsSym);
  const time = internal<() => string>(logger, pino.symbols.timeSym);
  const destination = internal<{ write(line: string): void }>(logger, pino.symbols.streamSym);
  const info = logger.levels.values.info!;
  const head = `{"level":${info}`;
  const routes = new Map<string, string>();
  return (fields) => {
    if (!logger.isLevelEnabled('info')) return;
    let route = routes.get(fields.route);
    if (route === undefined) routes.set(fields.route, (route = jsonText(fields.route)));
    const key = fields.key === undefined ? '' : `,"key":${jsonText(fields.key)}`;
    destination.write(
      `${head}${time()}${bindings},"method":${jsonText(fields.method)},"route":${route},` +
        `"path":${JSON.stringify(fields.path)},"status":${fields.status},"durationMs":${fields.durationMs},` +
        `"requestId":${jsonText(fields.requestId)}${key},"msg":"request"}\n`,
    );
  };
}
