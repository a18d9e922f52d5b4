/**
 * A registry token service, as Docker Hub's or Harbor's: it takes a user name and password (basic
 * auth) and hands out a JWT (ES256, its certificate in `x5c`) granting the scope asked for, which
 * docker-registry checks against the certificate it is configured with. The certificate is made by
 * the openssl command (certificate.ts).
 */
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { selfSignedCertificate } from './certificate.js';
import type { TokenAuth } from './docker-registry.js';

export interface TokenService {
  auth: TokenAuth;
  /** Tokens handed out, by scope. */
  issued: string[];
  close(): Promise<void>;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

export async function startTokenService(dir: string, user: { username: string; password: string }): Promise<TokenService> {
  const { certFile, keyFile } = selfSignedCertificate(dir, 'token', 'facetform-token');
  const key = createPrivateKey(readFileSync(keyFile));
  const der = readFileSync(certFile, 'utf8').replace(/-----[^-]+-----|\s/g, '');
  const issued: string[] = [];
  const service = 'facetform-registry';
  const issuer = 'facetform-token-service';
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://localhost');
    const given = Buffer.from((request.headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
    if (given !== `${user.username}:${user.password}`) {
      response.writeHead(401).end();
      return;
    }
    const access = url.searchParams.getAll('scope').flatMap((scope) => {
      const [type, name, actions] = scope.split(':');
      return [{ type, name, actions: actions!.split(',') }];
    });
    issued.push(...url.searchParams.getAll('scope'));
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ typ: 'JWT', alg: 'ES256', x5c: [der] }));
    const claims = base64url(
      JSON.stringify({ iss: issuer, sub: user.username, aud: service, exp: now + 300, nbf: now - 10, iat: now, jti: randomUUID(), access }),
    );
    const signature = base64url(sign('sha256', Buffer.from(`${header}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }));
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: `${header}.${claims}.${signature}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    auth: { realm: `http://127.0.0.1:${port}/token`, service, issuer, certFile },
    issued,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
