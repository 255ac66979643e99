import { createHmac } from 'node:crypto';
import { seal, unseal } from '../../proxy/sealed.js';
import type { ProxyStore } from '../../proxy/store.js';

/*
 * The OpenID Provider's storage in the proxy's own store (memory, Redis or Redis Cluster): a code
 * made on one node is redeemed on another and, with Redis, survives a restart. Every payload is
 * sealed (AES-256-GCM under the visitor secret), and every entry is named by a keyed digest of its
 * id, never the id itself (a code, an access token, a session cookie's value): what a login leaves in
 * the store is readable by no one who reads it, and no name there can be redeemed or sent as a cookie.
 */

const keyKeys = new Map<string, Buffer>();

/** The name an id is kept under: HMAC-SHA256 of its kind and value under a key of the secret's, 32 characters. */
export function storeName(secret: string, kind: string, id: string): string {
  let key = keyKeys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('esign-oidc store names').digest();
    keyKeys.set(secret, key);
  }
  return createHmac('sha256', key).update(`${kind}:${id}`).digest('base64url').slice(0, 32);
}

type Payload = Record<string, unknown> & { uid?: string; grantId?: string; userCode?: string; consumed?: number };

/** Models the library marks used (a code redeemed once): only their `:consumed` mark is read. */
const CONSUMABLE = new Set(['AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);
/**
 * Models whose entries belong to a grant, and go when it is revoked (a code redeemed twice revokes
 * what the first redemption gave). The code itself is not listed: it is consumed by then, and
 * gone within its own lifetime.
 */
const GRANTABLE = new Set(['AccessToken', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);
/** An entry without a lifetime of its own lives this long. */
const DEFAULT_TTL_S = 3600;

export interface AdapterContext {
  store: ProxyStore;
  secret: string;
  /** The provider library's error for a grant that cannot be used (a code redeemed twice at once). */
  alreadyConsumed: () => Error;
  /** A model's lifetime in seconds, where the provider sets one: a `:consumed` mark lives no longer than what it marks. */
  lifetimeOf?: (model: string) => number | undefined;
}

export function storeAdapter(context: AdapterContext): (model: string) => StoreAdapter {
  return (model) => new StoreAdapter(model, context);
}

export class StoreAdapter {
  readonly #model: string;
  readonly #context: AdapterContext;

  constructor(model: string, context: AdapterContext) {
    this.#model = model;
    this.#context = context;
  }

  #key(id: string): string {
    return `oidc:${this.#model}:${storeName(this.#context.secret, this.#model, id)}`;
  }

  #indexKey(index: 'uid' | 'user-code', value: string): string {
    return `oidc:${this.#model}:${index}:${storeName(this.#context.secret, `${this.#model}:${index}`, value)}`;
  }

  #grantKey(grantId: string): string {
    return `oidc:grant-members:${storeName(this.#context.secret, 'grant', grantId)}`;
  }

  /** The id an index names, kept sealed (the id is a credential: a session's, an interaction's). */
  async #indexed(key: string): Promise<string | null> {
    const sealed = await this.#context.store.get(key);
    return sealed === null ? null : unseal(this.#context.secret, sealed);
  }

  /** The entry and its indexes written together: their commands leave in one round trip (a client pipelines what is sent at once). */
  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const ttlMs = (expiresIn && expiresIn > 0 ? expiresIn : DEFAULT_TTL_S) * 1000;
    const { store, secret } = this.#context;
    const writes = [store.set(this.#key(id), seal(secret, JSON.stringify(payload)), ttlMs)];
    if (payload.uid) writes.push(store.set(this.#indexKey('uid', payload.uid), seal(secret, id), ttlMs));
    if (payload.userCode) writes.push(store.set(this.#indexKey('user-code', payload.userCode), seal(secret, id), ttlMs));
    if (GRANTABLE.has(this.#model) && payload.grantId) writes.push(this.#addToGrant(payload.grantId, this.#key(id), ttlMs));
    await Promise.all(writes);
  }

  async #addToGrant(grantId: string, key: string, ttlMs: number): Promise<void> {
    const { store } = this.#context;
    const grantKey = this.#grantKey(grantId);
    const members = new Set(this.#list(await store.get(grantKey)));
    members.add(key);
    await store.set(grantKey, JSON.stringify([...members]), ttlMs);
  }

  #list(text: string | null): string[] {
    if (!text) return [];
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  }

  async find(id: string): Promise<Payload | undefined> {
    const { store, secret } = this.#context;
    // the entry and its mark read in one round trip, the mark only where the library marks one
    const [sealed, consumed] = await Promise.all([store.get(this.#key(id)), CONSUMABLE.has(this.#model) ? store.get(`${this.#key(id)}:consumed`) : null]);
    const text = sealed === null ? null : unseal(secret, sealed);
    if (text === null) return undefined;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- sealed by this proxy (AES-GCM): the library's own payload, unchanged
    const payload = JSON.parse(text) as Payload;
    return consumed ? { ...payload, consumed: Number(consumed) } : payload;
  }

  async findByUid(uid: string): Promise<Payload | undefined> {
    const id = await this.#indexed(this.#indexKey('uid', uid));
    return id === null ? undefined : this.find(id);
  }

  async findByUserCode(userCode: string): Promise<Payload | undefined> {
    const id = await this.#indexed(this.#indexKey('user-code', userCode));
    return id === null ? undefined : this.find(id);
  }

  /**
   * Marks an entry used, once: of two redemptions of one code at the same moment (two nodes), the
   * second finds it taken and is refused, as it would be had it come later.
   */
  async consume(id: string): Promise<void> {
    // no longer than what it marks: the code itself is gone by then, and a redemption with it
    const lifetimeS = this.#context.lifetimeOf?.(this.#model) ?? DEFAULT_TTL_S;
    const took = await this.#context.store.setIfAbsent(`${this.#key(id)}:consumed`, String(Math.floor(Date.now() / 1000)), lifetimeS * 1000);
    if (!took) throw this.#context.alreadyConsumed();
  }

  async destroy(id: string): Promise<void> {
    await this.#context.store.delete(this.#key(id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    const { store } = this.#context;
    const grantKey = this.#grantKey(grantId);
    for (const key of this.#list(await store.get(grantKey))) await store.delete(key);
    await store.delete(grantKey);
  }
}
