/** A self-signed P-256 certificate and its key, made by the openssl command, for a test's own TLS or token signing. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** `name`.crt and `name`.key in `dir`, for `commonName`; `extensions` are openssl -addext values (e.g. a subjectAltName). */
export function selfSignedCertificate(
  dir: string,
  name: string,
  commonName: string,
  extensions: string[] = [],
): { certFile: string; keyFile: string } {
  const certFile = path.join(dir, `${name}.crt`);
  const keyFile = path.join(dir, `${name}.key`);
  const added = extensions.flatMap((extension) => ['-addext', extension]);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      `/CN=${commonName}`,
      ...added,
      '-days',
      '1',
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
