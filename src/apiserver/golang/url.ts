/**
 * Go's net/url Parse and ParseRequestURI (Go 1.26): a conversion webhook's url
 * (webhook.ValidateWebhookURL), the api-approved.kubernetes.io annotation, and Kubernetes' CEL url()
 * and format.uri(). Their error texts are part of the API server's messages, so they are ported with
 * them. Go parses bytes: strings here are "binary" (one char a UTF-8 byte). What a parsed URL gives
 * back (String, EscapedPath, Query …) is in url-print.ts.
 */
import { goQuoteBytes, isHex, parseAddr } from './netip.js';

/** A url.URL; its strings are Go bytes. */
export interface GoURL {
  scheme: string;
  /** Encoded opaque data: what follows `scheme:` when no `/` does. */
  opaque: string;
  /** Userinfo.String(), or undefined when the URL has no userinfo. */
  user: string | undefined;
  host: string;
  /** The path, unescaped; rawPath is the text as written when escaping the path would not give it back. */
  path: string;
  rawPath: string;
  /** A `scheme:/path` URL: String writes no `//`. */
  omitHost: boolean;
  /** The text ended its query with a lone `?`. */
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

/** A JS string as the bytes Go holds, one char a byte. */
export const toBytes = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

/** Go bytes as a JS string (invalid UTF-8 decoded as U+FFFD). */
export const fromBytes = (bytes: string): string => Buffer.from(bytes, 'latin1').toString('utf8');

class GoError extends Error {}

/** The encoding modes of url.shouldEscape. */
export type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

export function shouldEscape(c: string, mode: Mode): boolean {
  if (/[A-Za-z0-9]/.test(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    if (mode === 'path') return c === '?';
    if (mode === 'userPassword') return '@/?:'.includes(c);
    if (mode === 'fragment') return false;
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

/** url.unescape: `%XX` decoded (and `+` a space in a query); the errors name the bad escape or host character. */
export function unescape(s: string, mode: Mode): string {
  for (let i = 0; i < s.length;) {
    if (s[i] === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2]))
        throw new GoError(`invalid URL escape ${goQuoteBytes(s.slice(i, i + 3))}`);
      const value = parseInt(s.slice(i + 1, i + 3), 16);
      if (mode === 'host' && value >> 4 < 8 && s.slice(i, i + 3) !== '%25')
        throw new GoError(`invalid URL escape ${goQuoteBytes(s.slice(i, i + 3))}`);
      if (mode === 'zone' && s.slice(i, i + 3) !== '%25' && value !== 0x20 && shouldEscape(String.fromCharCode(value), 'host'))
        throw new GoError(`invalid URL escape ${goQuoteBytes(s.slice(i, i + 3))}`);
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && s.charCodeAt(i) < 0x80 && shouldEscape(s[i]!, mode))
        throw new GoError(`invalid character ${goQuoteBytes(s[i]!)} in host name`);
      i++;
    }
  }
  return s.replace(/%([0-9A-Fa-f]{2})|\+/g, (match, hex?: string) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : mode === 'queryComponent' ? ' ' : match,
  );
}

/** url.escape: bytes the mode does not keep as `%XX` (a space as `+` in a query). */
export function escape(s: string, mode: Mode): string {
  let out = '';
  for (const c of s) {
    if (c === ' ' && mode === 'queryComponent') out += '+';
    else out += shouldEscape(c, mode) ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : c;
  }
  return out;
}

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new GoError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

const validOptionalPort = (port: string): boolean => port === '' || /^:[0-9]*$/.test(port);

function parseHost(host: string): string {
  const open = host.lastIndexOf('[');
  if (open > 0) throw new GoError('invalid IP-literal');
  if (open === 0) {
    const close = host.lastIndexOf(']');
    if (close < 0) throw new GoError("missing ']' in host");
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort)) throw new GoError(`invalid port ${goQuoteBytes(colonPort)} after host`);
    const port = unescape(colonPort, 'host');
    const hostname = host.slice(1, close);
    const zone = hostname.indexOf('%25');
    const unescaped =
      zone >= 0 ? unescape(hostname.slice(0, zone), 'host') + unescape(hostname.slice(zone), 'zone') : unescape(hostname, 'host');
    const parsed = parseAddr(unescaped);
    if (typeof parsed === 'string') throw new GoError(`invalid host: ${parsed}`);
    if (parsed.is4) throw new GoError('invalid IP-literal');
    return `[${unescaped}]${port}`;
  }
  // The port follows the last colon: Go 1.26 counts from the first in http(s) URLs only under
  // GODEBUG urlstrictcolons=1, which a module of go 1.24 (Kubernetes 1.33's, the oracle's) does not get.
  const colon = host.lastIndexOf(':');
  if (colon !== -1) {
    const colonPort = host.slice(colon);
    if (!validOptionalPort(colonPort)) throw new GoError(`invalid port ${goQuoteBytes(colonPort)} after host`);
  }
  return unescape(host, 'host');
}

const USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

function parseAuthority(authority: string): { user: string | undefined; host: string } {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return { user: undefined, host };
  const userinfo = authority.slice(0, at);
  if (!USERINFO.test(userinfo)) throw new GoError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { user: escape(unescape(userinfo, 'userPassword'), 'userPassword'), host };
  const username = unescape(userinfo.slice(0, colon), 'userPassword');
  const password = unescape(userinfo.slice(colon + 1), 'userPassword');
  return { user: `${escape(username, 'userPassword')}:${escape(password, 'userPassword')}`, host };
}

function parse(raw: string, viaRequest: boolean): GoURL {
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new GoError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new GoError('empty url');
  const url: GoURL = {
    scheme: '',
    opaque: '',
    user: undefined,
    host: '',
    path: '',
    rawPath: '',
    omitHost: false,
    forceQuery: false,
    rawQuery: '',
    fragment: '',
    rawFragment: '',
  };
  if (raw === '*') return { ...url, path: '*' };
  let rest: string;
  [url.scheme, rest] = getScheme(raw);
  url.scheme = url.scheme.toLowerCase();
  if (rest.endsWith('?') && rest.split('?').length === 2) [url.forceQuery, rest] = [true, rest.slice(0, -1)];
  else if (rest.includes('?')) [rest, url.rawQuery] = [rest.slice(0, rest.indexOf('?')), rest.slice(rest.indexOf('?') + 1)];
  if (!rest.startsWith('/')) {
    if (url.scheme !== '') return { ...url, opaque: rest };
    if (viaRequest) throw new GoError('invalid URI for request');
    if (rest.split('/')[0]!.includes(':')) throw new GoError('first path segment in URL cannot contain colon');
  }
  if ((url.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    if (slash >= 0) authority = authority.slice(0, slash);
    Object.assign(url, parseAuthority(authority));
  } else if (url.scheme !== '' && rest.startsWith('/')) url.omitHost = true;
  // setPath: the raw text is kept only when escaping the path would not give it back.
  url.path = unescape(rest, 'path');
  url.rawPath = escape(url.path, 'path') === rest ? '' : rest;
  return url;
}

/** The error text of a GoError thrown by `run` (`parse "<text>": <reason>`), else what it gives. */
function parsed<T>(text: string, run: () => T): T | string {
  try {
    return run();
  } catch (error) {
    if (error instanceof GoError) return `parse ${goQuoteBytes(text)}: ${error.message}`;
    throw error;
  }
}

/** url.Parse of a JS string: the URL (its strings Go bytes), or the error's text. */
export function goParseURL(text: string): GoURL | string {
  const raw = toBytes(text);
  const hash = raw.indexOf('#');
  const head = hash < 0 ? raw : raw.slice(0, hash);
  const url = parsed(head, () => parse(head, false));
  if (typeof url === 'string' || hash < 0) return url;
  const fragment = raw.slice(hash + 1);
  if (fragment === '') return url;
  return parsed(raw, () => {
    // setFragment: the raw text is kept only when escaping the fragment would not give it back.
    const unescaped = unescape(fragment, 'fragment');
    return { ...url, fragment: unescaped, rawFragment: escape(unescaped, 'fragment') === fragment ? '' : fragment };
  });
}

/** url.ParseRequestURI: an absolute URI or path, no fragment (its strings Go bytes), or the error's text. */
export function goParseRequestURI(text: string): GoURL | string {
  const raw = toBytes(text);
  return parsed(raw, () => parse(raw, true));
}
