/**
 * Where the proxy keeps what must be shared by every node of a host: which visitor started
 * which session, rate-limit counters, and which results were handed to `onResult`. Values are
 * short strings; every key expires.
 */
export interface ProxyStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets the key only when it does not exist; true when this call set it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Adds one to a counter that lives `windowMs` from its first increment; returns the new count
   * and the ms left in its window. `limit`, where given: the count from which the caller reads the
   * ms left (below it a store may give the whole window and save itself asking).
   */
  increment(key: string, windowMs: number, limit?: number): Promise<{ count: number; resetInMs: number }>;
  /** Takes one off a counter that still exists (a counter that expired stays gone). */
  decrement(key: string): Promise<void>;
  delete(key: string): Promise<void>;
  /** Deletes the key only while it still holds `value` (a lease is given back only by its holder). */
  deleteIfEqual(key: string, value: string): Promise<void>;
  /**
   * Gives the key a new time to live only while it still holds `value` (a lease is renewed only by
   * its holder); true when it did. Optional: without it a lease lasts the whole `resultTimeoutMs`.
   */
  extendIfEqual?(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * Reads the key and deletes it in one step: of two calls at once, one gets the value, the other
   * null. Optional: without it what is taken once is read, marked and deleted in three calls.
   */
  take?(key: string): Promise<string | null>;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * The default store: memory of one process. Right for one node; a host with several nodes
 * behind a load balancer uses the Redis store (`esign-elements/proxy/redis`).
 */
export class MemoryStore implements ProxyStore {
  readonly #entries = new Map<string, Entry>();
  readonly #now: () => number;
  #lastSweep = 0;

  constructor(options: { now?: () => number } = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** Whether `store` is this process's own memory (not a wrapper of one): a store that cannot be away. */
  static isOwn(store: unknown): store is MemoryStore {
    return typeof store === 'object' && store !== null && #entries in store;
  }

  /** Number of live keys (for tests and monitoring). */
  get size(): number {
    this.#sweep(true);
    return this.#entries.size;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops expired keys now and then, so memory stays bounded by the live ones. */
  #sweep(force = false): void {
    const now = this.#now();
    if (!force && now - this.#lastSweep < 10_000) return;
    this.#lastSweep = now;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
  }

  async get(key: string): Promise<string | null> {
    return this.getNow(key);
  }

  /** What `get` gives, at once: the proxy reads a binding on every poll without a promise. */
  getNow(key: string): string | null {
    return this.#live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#sweep();
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.#live(key)) return false;
    await this.set(key, value, ttlMs);
    return true;
  }

  async increment(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const entry = this.#live(key);
    const now = this.#now();
    if (!entry) {
      await this.set(key, '1', windowMs);
      return { count: 1, resetInMs: windowMs };
    }
    entry.value = String(Number(entry.value) + 1);
    return { count: Number(entry.value), resetInMs: entry.expiresAt - now };
  }

  async decrement(key: string): Promise<void> {
    const entry = this.#live(key);
    if (entry) entry.value = String(Number(entry.value) - 1);
  }

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }

  async deleteIfEqual(key: string, value: string): Promise<void> {
    if (this.#live(key)?.value === value) this.#entries.delete(key);
  }

  async take(key: string): Promise<string | null> {
    const value = this.#live(key)?.value ?? null;
    this.#entries.delete(key);
    return value;
  }

  async extendIfEqual(key: string, value: string, ttlMs: number): Promise<boolean> {
    const entry = this.#live(key);
    if (entry?.value !== value) return false;
    entry.expiresAt = this.#now() + ttlMs;
    return true;
  }
}
