/** Headers every API answer should carry: no MIME sniffing, and no caching of answers that depend on the key. */
import type { ServerResponse } from 'node:http';

export function setSecurityHeaders(res: ServerResponse, publicPath: boolean): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (!publicPath) res.setHeader('Cache-Control', 'no-store');
}
