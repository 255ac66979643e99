import { createCipheriv, createDecipheriv, createHmac, randomFillSync } from 'node:crypto';
import { remembered, REMEMBERED } from './remembered.js';

/*
 * What the proxy must keep for a while but nobody reading its store may use: a finished login's
 * cookies (a host's new session), the person a signing was checked against. AES-256-GCM under a
 * key derived from the visitor secret, so every node of a host opens what another sealed.
 */

const keys = new Map<string, Buffer>();

function keyOf(secret: string): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('esign-proxy sealed values').digest();
    keys.set(secret, key);
  }
  return key;
}

const nameKeys = new Map<string, Buffer>();

/**
 * The name a session's entries are kept under: a keyed digest of its token (HMAC-SHA256 under a
 * key of the visitor secret's), so that no key of the store holds a token a reader could use.
 */
export const tokenName = remembered(REMEMBERED, (secret: string, token: string): string => {
  let key = nameKeys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('esign-proxy store names').digest();
    nameKeys.set(secret, key);
  }
  return createHmac('sha256', key).update(token).digest('base64url').slice(0, 32);
});

/*
 * This process's nonces, GCM's deterministic construction (NIST SP 800-38D, 8.2.1): a fixed field of
 * 8 random bytes drawn once, then a count of 4 bytes, the field drawn again before the count wraps.
 * Unique per process without drawing randomness for every value; two processes share a field with
 * a chance of about one in 2^64.
 */
const nonce = Buffer.alloc(12);
let count = 0;

function nextNonce(): Buffer {
  if (count === 0) randomFillSync(nonce, 0, 8);
  nonce.writeUInt32BE(count, 8);
  count = (count + 1) % 2 ** 32;
  return nonce;
}

/** The text sealed: base64url of the nonce, the tag and the ciphertext. */
export function seal(secret: string, text: string): string {
  return sealWithNonce(secret, text, nextNonce());
}

/** Sealed with a nonce of the caller's: for fixed test vectors only (a nonce used twice under one key gives the two texts away). */
export function sealWithNonce(secret: string, text: string, nonce: Buffer): string {
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), nonce);
  const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

/** The text of a sealed value, or null when it is not one this secret sealed. */
export function unseal(secret: string, sealed: string): string | null {
  const bytes = Buffer.from(sealed, 'base64url');
  if (bytes.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
