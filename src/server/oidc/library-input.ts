import type { ClientMetadata, JWK, JWKS } from 'oidc-provider';

/*
 * The settings' files as the provider library takes them. The settings checked what the proxy
 * itself relies on; the library checks every registration and key again at start and refuses a bad
 * one by name.
 */

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** A registration with its client_id, and its redirect URIs a list of strings where it has them. */
export function isClientMetadata(registration: Record<string, unknown>): registration is ClientMetadata {
  const uris = registration['redirect_uris'];
  return typeof registration['client_id'] === 'string' && (uris === undefined || isStringList(uris));
}

const JWK_TEXTS = ['kid', 'alg', 'crv', 'd', 'dp', 'dq', 'e', 'k', 'kty', 'n', 'p', 'q', 'qi', 'use', 'x', 'y'] as const;

/** A key of the keys file, its members of the JWK standard taken by name. */
function jwkOf(key: Record<string, unknown>): JWK {
  const jwk: JWK = {};
  for (const name of JWK_TEXTS) {
    const value = key[name];
    if (typeof value === 'string') jwk[name] = value;
  }
  const chain = key['x5c'];
  if (isStringList(chain)) jwk.x5c = chain;
  const operations = key['key_ops'];
  if (isStringList(operations)) jwk.key_ops = operations;
  return jwk;
}

export const jwksOf = (keys: { keys: Record<string, unknown>[] }): JWKS => ({ keys: keys.keys.map(jwkOf) });
