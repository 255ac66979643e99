import type { HashAlgorithm } from '../../protocol/types.js';
import { HASH_HEX_LENGTH } from '../../internal/validation/hash.js';

/** A hash as the host may give it: lowercase or uppercase hex, base64, or bytes. */
export type HashInput = string | Uint8Array | ArrayBuffer;

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Lowercase hex of a hash given as hex, base64 or bytes; null when it is none of those. */
export function hashToHex(input: HashInput | null | undefined): string | null {
  if (input === null || input === undefined) return null;
  if (input instanceof ArrayBuffer) return hexOf(new Uint8Array(input));
  if (input instanceof Uint8Array) return hexOf(input);
  const text = input.trim();
  if (!text) return null;
  if (/^[0-9a-fA-F]+$/.test(text) && (text.length === 64 || text.length === 128)) return text.toLowerCase();
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    try {
      const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
      return hexOf(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    } catch {
      return null;
    }
  }
  return null;
}

export function hashFits(hex: string | null, algorithm: HashAlgorithm): boolean {
  return hex !== null && hex.length === HASH_HEX_LENGTH[algorithm] && /^[0-9a-f]+$/.test(hex);
}
