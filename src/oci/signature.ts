/**
 * Release signatures: a signature over an artifact's manifest digest, made with ECDSA P-256 (SHA-256)
 * or Ed25519 through node:crypto, and checked against trusted public keys. What is signed is the
 * line `facetform.signature/v1` and the digest, so the bytes cannot be taken for another protocol's;
 * `openssl` can check it (docs/releases.md, "Releases through a registry").
 */
import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FileReadError, readRegularFileSync } from '../util/regular-file.js';
import { sha256Digest } from './manifest.js';

export const SIGNATURE_FORMAT = 'facetform.signature/v1';

export interface SignatureDocument {
  format: typeof SIGNATURE_FORMAT;
  /** The manifest digest signed. */
  subject: string;
  algorithm: 'ecdsa-p256-sha256' | 'ed25519';
  /** sha256 of the public key's DER (SPKI): which key signed, without trusting the signer's word for it. */
  keyId: string;
  /** Base64: DER for ECDSA, raw for Ed25519. */
  signature: string;
}

export class KeyError extends Error {}

export const signedBytes = (digest: string): Buffer => Buffer.from(`${SIGNATURE_FORMAT}\n${digest}`);

export const keyIdOf = (key: KeyObject): string => sha256Digest(key.export({ type: 'spki', format: 'der' }));

function algorithmOf(key: KeyObject, file: string): SignatureDocument['algorithm'] {
  if (key.asymmetricKeyType === 'ed25519') return 'ed25519';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ecdsa-p256-sha256';
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const type = `${key.asymmetricKeyType?.toUpperCase()}${curve === undefined ? '' : ` ${curve}`}`;
  throw new KeyError(`${file}: holds a key of type ${type}; sign with ECDSA P-256 or Ed25519`);
}

/** The private key in a PEM file, checked to be one we sign with. */
export function readSigningKey(file: string): KeyObject {
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (error) {
    throw new KeyError(
      `${file}: not a PEM private key (${(error as Error).message}); make one with \`openssl genpkey -algorithm ed25519 -out key.pem\``,
    );
  }
  algorithmOf(key, file);
  return key;
}

/**
 * The most bytes TRUST_KEY_FILE may have: thousands of PEM public keys (an Ed25519 one is 113 bytes).
 * It is read again on SIGHUP, so a larger file, a FIFO or a device is refused unread.
 */
export const MAX_TRUST_KEY_FILE_BYTES = 1024 * 1024;

/** Every public key in a PEM file (several for a rotation), each checked to be one we verify with. */
export function readTrustedKeys(file: string): KeyObject[] {
  let text: string;
  try {
    text = readRegularFileSync(file, MAX_TRUST_KEY_FILE_BYTES).toString('utf8');
  } catch (error) {
    if (error instanceof FileReadError) throw new KeyError(error.message);
    throw error;
  }
  const blocks = text.match(/-----BEGIN PUBLIC KEY-----[\s\S]*?-----END PUBLIC KEY-----/g) ?? [];
  if (blocks.length === 0)
    throw new KeyError(
      `${file}: holds no PEM public key (-----BEGIN PUBLIC KEY-----); export one with \`openssl pkey -in key.pem -pubout\``,
    );
  return blocks.map((block, index) => {
    let key: KeyObject;
    try {
      key = createPublicKey(block);
    } catch (error) {
      throw new KeyError(`${file}: public key ${index + 1} cannot be read (${(error as Error).message})`);
    }
    algorithmOf(key, file);
    return key;
  });
}

export function signDigest(digest: string, key: KeyObject): SignatureDocument {
  const algorithm = algorithmOf(key, 'the signing key');
  const signature = sign(algorithm === 'ed25519' ? null : 'sha256', signedBytes(digest), key);
  return {
    format: SIGNATURE_FORMAT,
    subject: digest,
    algorithm,
    keyId: keyIdOf(createPublicKey(key)),
    signature: signature.toString('base64'),
  };
}

/** Whether `document` is a good signature of `digest` by one of `trusted`; otherwise why not, in words. */
export function checkSignature(
  document: unknown,
  digest: string,
  trusted: readonly KeyObject[],
): { ok: true; keyId: string } | { ok: false; why: string } {
  const candidate = document as Partial<SignatureDocument> | null;
  if (candidate?.format !== SIGNATURE_FORMAT || typeof candidate.signature !== 'string' || typeof candidate.keyId !== 'string')
    return { ok: false, why: `its signature is not a ${SIGNATURE_FORMAT} document` };
  if (candidate.subject !== digest) return { ok: false, why: `its signature is of another manifest (${String(candidate.subject)})` };
  const key = trusted.find((entry) => keyIdOf(entry) === candidate.keyId);
  if (key === undefined) return { ok: false, why: `it is signed by key ${candidate.keyId}, which is not a trusted key` };
  const signature = Buffer.from(candidate.signature, 'base64');
  const good = verify(key.asymmetricKeyType === 'ed25519' ? null : 'sha256', signedBytes(digest), key, signature);
  return good
    ? { ok: true, keyId: candidate.keyId }
    : { ok: false, why: `its signature by trusted key ${candidate.keyId} does not verify` };
}
