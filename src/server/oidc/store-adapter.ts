import { createHmac } from 'node:crypto';
import { seal, unseal } from '../../proxy/sealed.js';
import type { ProxyStore } from '../../proxy/store.js';
import { remembered, REMEMBERED } from '../../proxy/remembered.js';

/*
 * The OpenID Provider's storage in the proxy's own store (memory, Redis or Redis Cluster): a code
 * made on one node is redeemed on another and, with Redis, survives a restart. Every payload is
 * sealed (AES-256-GCM under the visitor secret), and every entry is named by a keyed digest of its
 * id, never the id itself (a code, an access token, a session cookie's value): what a login leaves in
 * the store is readable by no one who reads it, and no name there can be redeemed or sent as a cookie.
 */

const keyKeys = new Map<string, Buffer>();

/**
 * The name of a `kind:id`, remembered a while: a login's interaction is written and read five
 * times, its grant and code three, each by the same name.
 */
const nameOf = remembered(REMEMBERED, (secret, kindAndId) => {
  let key = keyKeys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('esign-oidc store names').digest();
    keyKeys.set(secret, key);
  }
  return createHmac('sha256', key).update(kindAndId).digest('base64url').slice(0, 32);
});

/** The name an id is kept under: HMAC-SHA256 of its kind and value under a key of the secret's, 32 characters. */
export function storeName(secret: string, kind: string, id: string): string {
  return nameOf(secret, `${kind}:${id}`);
}

/** Where the library's entry of a model is kept. */
const entryKey = (secret: string, model: string, id: string) => `oidc:${model}:${storeName(secret, model, id)}`;

type Payload = Record<string, unknown> & { uid?: string; grantId?: string; userCode?: string };

/**
 * What a record carries besides the library's payload, under a name the library never reads (it
 * takes only its own fields from an entry): the proxy's data kept with the entry (a login's person
 * with its grant), and the records that the same step wrote just before it, which a later request
 * then reads with this one instead of asking the store again.
 */
const CARRIED = 'esign:carried';

interface Carried {
  data?: Record<string, unknown>;
  entries?: Record<string, Payload>;
}

/** An entry without a lifetime of its own lives this long. */
const DEFAULT_TTL_S = 3600;

export interface AdapterContext {
  store: ProxyStore;
  secret: string;
  /** The provider library's error for a grant that cannot be used (a code redeemed twice at once). */
  alreadyConsumed: () => Error;
  /** A model's lifetime in seconds, where the provider sets one: a `:consumed` mark lives no longer than what it marks. */
  lifetimeOf?: (model: string) => number | undefined;
  /** The library's request being answered, if any (its context): an entry one request has read is not read again by it. */
  request?: () => object | undefined;
}

/** Entries that one step writes one after another: each record carries `data` and the group's records written before it. */
interface WrittenTogether {
  readonly data: Record<string, unknown>;
  readonly written: Record<string, Payload>;
}

interface Shared {
  context: AdapterContext;
  /** The groups of the writes under way, by `model:id`. */
  groups: Map<string, WrittenTogether>;
  /** By the library's request: the records it read, and those that came with them, by `model:id`. */
  reads: WeakMap<object, Map<string, Payload>>;
}

const entryName = (model: string, id: string) => `${model}:${id}`;

/** The library's payload of a record, without what it carries. */
function payloadOf(record: Payload): Payload {
  const { [CARRIED]: _carried, ...payload } = record;
  return payload;
}

function carriedOf(record: Payload): Carried {
  const carried = record[CARRIED];
  // written by this adapter under its own name, sealed (AES-GCM)
  return typeof carried === 'object' && carried !== null ? carried : {};
}

/**
 * The OpenID Provider's storage and what the proxy keeps with it: `adapter` for the library,
 * `together` before one step's writes, `carried` for the data a request read with an entry.
 */
export interface ProviderStore {
  adapter: (model: string) => StoreAdapter | NoSessions;
  /**
   * The entries named are written next, in this order: each record then carries `data` and the
   * records of the group written before it. The function returned ends the group.
   */
  together: (entries: readonly (readonly [model: string, id: string])[], data: Record<string, unknown>) => () => void;
  /** The data kept with an entry that this request has read; undefined when it has not read it, or none was kept. */
  carried: (request: object, model: string, id: string) => Record<string, unknown> | undefined;
}

export function providerStore(context: AdapterContext): ProviderStore {
  const shared: Shared = { context, groups: new Map(), reads: new WeakMap() };
  return {
    adapter: (model) => (model === 'Session' ? new NoSessions() : new StoreAdapter(model, shared)),
    together: (entries, data) => {
      const group: WrittenTogether = { data, written: {} };
      const names = entries.map(([model, id]) => entryName(model, id));
      for (const name of names) shared.groups.set(name, group);
      return () => {
        for (const name of names) if (shared.groups.get(name) === group) shared.groups.delete(name);
      };
    },
    carried: (request, model, id) => {
      const record = shared.reads.get(request)?.get(entryName(model, id));
      return record ? carriedOf(record).data : undefined;
    },
  };
}

/**
 * The library's sessions, not kept: every authorization asks the person (no login is taken from
 * an earlier one) and no token ends with a session, so a session would never be read again. A
 * browser's session cookie names nothing, and one person's login is never continued as another's.
 */
export class NoSessions {
  async upsert(): Promise<void> {}
  async find(): Promise<undefined> {
    return undefined;
  }
  async findByUid(): Promise<undefined> {
    return undefined;
  }
  async findByUserCode(): Promise<undefined> {
    return undefined;
  }
  async consume(): Promise<void> {}
  async destroy(): Promise<void> {}
  async revokeByGrantId(): Promise<void> {}
}

export class StoreAdapter {
  readonly #model: string;
  readonly #shared: Shared;

  constructor(model: string, shared: Shared) {
    this.#model = model;
    this.#shared = shared;
  }

  get #context(): AdapterContext {
    return this.#shared.context;
  }

  #key(id: string): string {
    return entryKey(this.#context.secret, this.#model, id);
  }

  #indexKey(index: 'uid' | 'user-code', value: string): string {
    return `oidc:${this.#model}:${index}:${storeName(this.#context.secret, `${this.#model}:${index}`, value)}`;
  }

  /** The records the library's current request has read, when it is answering one. */
  #readsOfRequest(): Map<string, Payload> | undefined {
    const request = this.#context.request?.();
    if (!request) return undefined;
    let reads = this.#shared.reads.get(request);
    if (!reads) this.#shared.reads.set(request, (reads = new Map<string, Payload>()));
    return reads;
  }

  /** An entry changed or gone: the request reads it from the store again, if ever. */
  #forget(id: string): void {
    const request = this.#context.request?.();
    if (request) this.#shared.reads.get(request)?.delete(entryName(this.#model, id));
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
    this.#forget(id);
    const name = entryName(this.#model, id);
    const group = this.#shared.groups.get(name);
    let record: Payload = payload;
    if (group) {
      const entries = Object.keys(group.written).length ? { ...group.written } : undefined;
      record = { ...payload, [CARRIED]: { data: group.data, ...(entries ? { entries } : {}) } };
      group.written[name] = record;
    }
    const writes = [store.set(this.#key(id), seal(secret, JSON.stringify(record)), ttlMs)];
    if (payload.uid) writes.push(store.set(this.#indexKey('uid', payload.uid), seal(secret, id), ttlMs));
    if (payload.userCode) writes.push(store.set(this.#indexKey('user-code', payload.userCode), seal(secret, id), ttlMs));
    await Promise.all(writes);
  }

  /**
   * The entry as the library wrote it: from what this request has read already (an entry carried
   * by one it read), else from the store. A used mark is not read here: `consume` finds it, and refuses.
   */
  async find(id: string): Promise<Payload | undefined> {
    const name = entryName(this.#model, id);
    const reads = this.#readsOfRequest();
    const known = reads?.get(name);
    // a copy of its own each time: the library may change what it is given
    if (known) return structuredClone(payloadOf(known));
    const { store, secret } = this.#context;
    const sealed = await store.get(this.#key(id));
    const text = sealed === null ? null : unseal(secret, sealed);
    if (text === null) return undefined;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- sealed by this proxy (AES-GCM): the library's own payload, unchanged
    const record = JSON.parse(text) as Payload;
    if (reads) {
      reads.set(name, record);
      for (const [carriedName, carried] of Object.entries(carriedOf(record).entries ?? {})) if (!reads.has(carriedName)) reads.set(carriedName, carried);
    }
    return payloadOf(record);
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
   * Marks an entry used, once. A code used again, later or at the same moment (two nodes), is
   * refused, and its grant revoked with all that it gave (RFC 6749, 4.1.2): the redemption that
   * came first has its access token revoked too, as a code that was used twice may be stolen.
   */
  async consume(id: string): Promise<void> {
    const { store } = this.#context;
    // no longer than what it marks: the code itself is gone by then, and a redemption with it
    const lifetimeS = this.#context.lifetimeOf?.(this.#model) ?? DEFAULT_TTL_S;
    if (await store.setIfAbsent(`${this.#key(id)}:consumed`, String(Math.floor(Date.now() / 1000)), lifetimeS * 1000)) return;
    this.#forget(id);
    const used = await this.find(id);
    if (used?.grantId) await this.#revoke(used.grantId);
    throw this.#context.alreadyConsumed();
  }

  async destroy(id: string): Promise<void> {
    this.#forget(id);
    await this.#context.store.delete(this.#key(id));
  }

  /**
   * What a grant gave is revoked with the grant itself: every use of an access token (userinfo)
   * finds its grant first and is refused without it, so no list of a grant's tokens is kept.
   */
  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#revoke(grantId);
  }

  async #revoke(grantId: string): Promise<void> {
    const request = this.#context.request?.();
    if (request) this.#shared.reads.get(request)?.delete(entryName('Grant', grantId));
    await this.#context.store.delete(entryKey(this.#context.secret, 'Grant', grantId));
  }
}
