import type { HashAlgorithm } from '../../protocol/types.js';

export const HASH_HEX_LENGTH: Record<HashAlgorithm, number> = { SHA256: 64, SHA512: 128 };

export function isHashHex(hash: string, algorithm: HashAlgorithm): boolean {
  return hash.length === HASH_HEX_LENGTH[algorithm] && /^[0-9a-f]+$/.test(hash);
}

/** Printable ASCII only (what Smart-ID's hash signing shows on the phone). */
export function isAscii(text: string): boolean {
  return /^[\x20-\x7e]*$/.test(text);
}
