/**
 * What Go's url.URL gives back once parsed (Go 1.26): String, EscapedPath, Hostname, Port and
 * Query, as Kubernetes' CEL url library returns them and compares URLs by. Strings are Go bytes.
 */
import { escape, type GoURL, type Mode, shouldEscape, unescape } from './url.js';

/** validEncoded: no byte the mode escapes, sub-delims, brackets and `%` aside. */
function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) if (!`!$&'()*+,;=:@[]%`.includes(c) && shouldEscape(c, mode)) return false;
  return true;
}

/** The raw form when it is a valid encoding of the decoded one (EscapedPath, EscapedFragment). */
function rawForm(raw: string, decoded: string, mode: Mode): string | undefined {
  if (raw === '' || !validEncoded(raw, mode)) return undefined;
  try {
    return unescape(raw, mode) === decoded ? raw : undefined;
  } catch {
    return undefined;
  }
}

/** URL.EscapedPath: the path as written when that is a valid encoding of it, else escaped (`*` as it is). */
export const escapedPath = (url: GoURL): string =>
  rawForm(url.rawPath, url.path, 'path') ?? (url.path === '*' ? '*' : escape(url.path, 'path'));

/** URL.String: the URL reassembled, each part escaped as Go escapes it. */
export function urlString(url: GoURL): string {
  let out = url.scheme === '' ? '' : `${url.scheme}:`;
  if (url.opaque !== '') out += url.opaque;
  else {
    const hasUser = url.user !== undefined;
    if ((url.scheme !== '' || url.host !== '' || hasUser) && !(url.omitHost && url.host === '' && !hasUser)) {
      if (url.host !== '' || url.path !== '' || hasUser) out += '//';
      if (hasUser) out += `${url.user}@`;
      if (url.host !== '') out += escape(url.host, 'host');
    }
    const path = escapedPath(url);
    if (path !== '' && path[0] !== '/' && url.host !== '') out += '/';
    // A first segment with a colon would read as a scheme.
    if (out === '' && path.split('/')[0]!.includes(':')) out += './';
    out += path;
  }
  if (url.forceQuery || url.rawQuery !== '') out += `?${url.rawQuery}`;
  if (url.fragment !== '') out += `#${rawForm(url.rawFragment, url.fragment, 'fragment') ?? escape(url.fragment, 'fragment')}`;
  return out;
}

/** splitHostPort: the port after the last colon when it is digits, brackets taken off the host. */
function splitHostPort(hostPort: string): [string, string] {
  let [host, port] = [hostPort, ''];
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && /^:[0-9]*$/.test(host.slice(colon))) [host, port] = [host.slice(0, colon), host.slice(colon + 1)];
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export const hostname = (url: GoURL): string => splitHostPort(url.host)[0];
export const port = (url: GoURL): string => splitHostPort(url.host)[1];

/** URL.Query (url.ParseQuery with its errors dropped): each key's values in order; malformed pairs skipped. */
export function query(url: GoURL): Map<string, string[]> {
  const values = new Map<string, string[]>();
  // Go's default limit on query parameters: over it, ParseQuery gives nothing.
  if (url.rawQuery.split('&').length > 10_000) return values;
  for (const pair of url.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const equals = pair.indexOf('=');
    try {
      const key = unescape(equals < 0 ? pair : pair.slice(0, equals), 'queryComponent');
      const value = unescape(equals < 0 ? '' : pair.slice(equals + 1), 'queryComponent');
      values.set(key, [...(values.get(key) ?? []), value]);
    } catch {
      // a malformed escape: the pair is skipped
    }
  }
  return values;
}
