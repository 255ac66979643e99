import { KeyObject, constants, privateEncrypt, webcrypto } from 'node:crypto';
import { p256 } from '@noble/curves/nist.js';
import type { HashAlgorithm } from '../types.js';

const DIGEST_INFO_PREFIX: Record<HashAlgorithm, string> = {
  SHA256: '3031300d060960864801650304020105000420',
  SHA512: '3051300d060960864801650304020305000440',
};

/**
 * Signs a precomputed digest with an identity's key: ECDSA P-256 as raw r||s, or RSA
 * PKCS#1 v1.5 over the DigestInfo. Neither WebCrypto nor node:crypto signs a digest
 * without hashing it again, hence noble for ECDSA and the raw RSA private operation.
 */
export async function signDigest(privateKey: CryptoKey, digest: Uint8Array, algorithm: HashAlgorithm): Promise<Uint8Array> {
  if (privateKey.algorithm.name === 'ECDSA') {
    const jwk = await webcrypto.subtle.exportKey('jwk', privateKey);
    if (!jwk.d) throw new Error('the signing key exported without its private part');
    const secret = Buffer.from(jwk.d, 'base64url');
    return p256.sign(digest, secret, { prehash: false });
  }
  const digestInfo = Buffer.concat([Buffer.from(DIGEST_INFO_PREFIX[algorithm], 'hex'), digest]);
  return privateEncrypt({ key: KeyObject.from(privateKey), padding: constants.RSA_PKCS1_PADDING }, digestInfo);
}
