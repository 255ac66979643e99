import { createHash } from 'node:crypto';

/** Smart-ID: the first two bytes of SHA-256 of the hash, as a number, modulo 10000. */
export function smartIdControlCode(hash: Uint8Array): string {
  const digest = createHash('sha256').update(hash).digest();
  return String(digest.readUInt16BE(0) % 10000).padStart(4, '0');
}

/** Mobile-ID: 6 high bits of the first byte of the hash and 7 low bits of its last byte. */
export function mobileIdControlCode(hash: Uint8Array): string {
  const first = hash[0] ?? 0;
  const last = hash[hash.length - 1] ?? 0;
  return String(((first >> 2) << 7) | (last & 0x7f)).padStart(4, '0');
}
