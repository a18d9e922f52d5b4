/**
 * Blobs of the distribution API: whether the registry has one, uploading one (in one PUT when small,
 * else in chunks: a registry or proxy may refuse a large single request), and fetching one checked
 * against its digest.
 */
import { readAtMost } from './bounded-read.js';
import { sha256Digest } from './manifest.js';
import { RegistryError } from './registry-errors.js';
import type { RegistryHttp } from './registry-http.js';

export async function hasBlob(http: RegistryHttp, name: string, digest: string): Promise<boolean> {
  const response = await http.request(`repository:${name}:pull`, 'HEAD', http.url(name, `blobs/${digest}`));
  if (response.status === 404) return false;
  if (response.ok) return true;
  throw await http.failure(`HEAD blob ${digest} of ${name}`, response);
}

/** Uploads a blob unless the registry has it: in one PUT when small, else in chunks (POST, PATCH…, PUT). */
export async function pushBlob(http: RegistryHttp, name: string, bytes: Uint8Array, digest: string): Promise<void> {
  if (await hasBlob(http, name, digest)) return;
  const scope = `repository:${name}:pull,push`;
  const started = await http.request(scope, 'POST', http.url(name, 'blobs/uploads/'), { headers: { 'content-length': '0' } });
  if (started.status !== 202) throw await http.failure(`starting an upload to ${name}`, started);
  await started.body?.cancel();
  let location = http.location(started);
  const chunk = http.options.chunkBytes ?? 4 * 1024 * 1024;
  let body: Uint8Array | undefined = bytes;
  if (bytes.length > chunk) {
    for (let offset = 0; offset < bytes.length; offset += chunk) {
      const part = bytes.subarray(offset, Math.min(offset + chunk, bytes.length));
      const patched = await http.request(scope, 'PATCH', location, {
        headers: {
          'content-type': 'application/octet-stream',
          'content-range': `${offset}-${offset + part.length - 1}`,
          'content-length': String(part.length),
        },
        body: part,
      });
      if (patched.status !== 202) throw await http.failure(`uploading bytes ${offset}+ of ${digest} to ${name}`, patched);
      await patched.body?.cancel();
      location = http.location(patched);
    }
    body = undefined;
  }
  const finish = new URL(location);
  finish.searchParams.set('digest', digest);
  const put = await http.request(scope, 'PUT', finish.href, {
    headers: { 'content-type': 'application/octet-stream', 'content-length': String(body?.length ?? 0) },
    ...(body === undefined ? {} : { body }),
  });
  if (put.status !== 201) throw await http.failure(`finishing the upload of ${digest} to ${name}`, put);
  await put.body?.cancel();
}

/** A blob's bytes, checked against its digest: a registry that answers other bytes is refused. */
export async function pullBlob(http: RegistryHttp, name: string, digest: string, maxBytes: number): Promise<Buffer> {
  const response = await http.request(`repository:${name}:pull`, 'GET', http.url(name, `blobs/${digest}`));
  if (!response.ok) throw await http.failure(`GET blob ${digest} of ${name}`, response);
  const bytes = await readAtMost(response, maxBytes, `blob ${digest} of ${name}`);
  const actual = sha256Digest(bytes);
  if (actual !== digest) throw new RegistryError(`${http.registry} answered blob ${digest} of ${name} with other content (${actual})`);
  return bytes;
}
