/**
 * Kubernetes' CEL url library (k8s.io/apiserver/pkg/cel/library/urls.go): url() (which Go's
 * url.ParseRequestURI must take, then url.Parse makes the value), isURL() (ParseRequestURI alone),
 * and the getters. URLs are equal when their String() is.
 */
import { fromBytes, type GoURL, goParseRequestURI, goParseURL } from '../../apiserver/golang/url.js';
import { escapedPath, hostname, port, query, urlString } from '../../apiserver/golang/url-print.js';
import type { Library } from './opaque.js';

const PARSE_ERROR = 'URL parse error during conversion from string: ';

export const urlLibrary: Library = ({ cel }, types) => {
  const { celFunc, celMethod, listType, mapType } = cel;
  const { STRING, BOOL } = cel.CelScalar;
  const URL = types['kubernetes.URL'];
  const get = (name: string, part: (url: GoURL) => string) =>
    celMethod(name, URL.type, [], STRING, function () {
      return fromBytes(part(URL.value(this) as GoURL));
    });
  return [
    celFunc('url', [STRING], URL.type, (text) => {
      const request = goParseRequestURI(text);
      if (typeof request === 'string') throw new Error(PARSE_ERROR + request);
      const url = goParseURL(text);
      if (typeof url === 'string') throw new Error(PARSE_ERROR + url);
      return URL.of(urlString(url), url);
    }),
    celFunc('isURL', [STRING], BOOL, (text) => typeof goParseRequestURI(text) !== 'string'),
    get('getScheme', (url) => url.scheme),
    get('getHost', (url) => url.host),
    get('getHostname', hostname),
    get('getPort', port),
    get('getEscapedPath', escapedPath),
    celMethod('getQuery', URL.type, [], mapType(STRING, listType(STRING)), function () {
      const values = query(URL.value(this) as GoURL);
      return new Map([...values].map(([key, list]) => [fromBytes(key), list.map(fromBytes)]));
    }),
  ];
};
