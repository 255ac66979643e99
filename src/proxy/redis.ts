import type { ProxyStore } from './store.js';

/**
 * The part of a Redis client the store needs. Both maintained Node clients fit, on one server or a
 * Redis Cluster: ioredis (`new Redis()`, `new Cluster()`, through `call`), node-redis
 * (`createClient()` through `sendCommand(args)`, `createCluster()` through `sendCommand(key, readonly, args)`).
 */
export type RedisClientLike =
  | { call(command: string, ...args: string[]): Promise<unknown> }
  | { masters: unknown; sendCommand(firstKey: string, isReadonly: boolean, args: string[]): Promise<unknown> }
  | { sendCommand(args: string[]): Promise<unknown> };

// DECR keeps the key's expiry; a counter that expired is not brought back as -1
const DECREMENT = `if redis.call('EXISTS', KEYS[1]) == 1 then redis.call('DECR', KEYS[1]) end
return 0`;
const DELETE_IF_EQUAL = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0`;
const EXTEND_IF_EQUAL = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;

/** How many counters a store remembers it has counted. */
const COUNTERS_KNOWN = 10_000;

/** The key a command is about: `GET key`, `SET key …`, or a script's one key (`EVAL script 1 key …`). */
function keyOf(args: string[]): string {
  return (args[0] === 'EVAL' ? args[3] : args[1]) ?? '';
}

/**
 * A {@link ProxyStore} in Redis, for hosts that run the proxy on several nodes: session
 * bindings, rate limits and delivered results are shared by all of them.
 *
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisStore } from 'esign-elements/proxy/redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * createProxyHandler({ ..., store: new RedisStore(redis) });
 * ```
 */
export class RedisStore implements ProxyStore {
  /**
   * Sends one command about one key. Every command of the store names a single key (a script its
   * one KEYS[1]), so a session's keys may live in different slots of a cluster: no hash tags.
   */
  readonly #command: (args: string[]) => Promise<unknown>;
  readonly #prefix: string;
  /**
   * The counters this store has counted, and when their windows end at the latest: a later count
   * of one is an `INCR` at once, without a `SET NX` first (a window that ended sooner is begun
   * again all the same).
   */
  readonly #countingUntil = new Map<string, number>();

  constructor(client: RedisClientLike, options: { prefix?: string } = {}) {
    this.#prefix = options.prefix ?? 'esign-proxy:';
    // ioredis first: its clients also have a sendCommand of their own, which takes a Command object
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the first of a command is its name
    if ('call' in client && typeof client.call === 'function') this.#command = ([command, ...args]) => client.call(command as string, ...args);
    else if ('masters' in client) this.#command = (args) => client.sendCommand(keyOf(args), false, args);
    else if ('sendCommand' in client) this.#command = (args) => client.sendCommand(args);
    else throw new TypeError('RedisStore needs a node-redis or ioredis client');
  }

  async get(key: string): Promise<string | null> {
    const value = await this.#command(['GET', this.#prefix + key]);
    return value === null || value === undefined ? null : String(value);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.#command(['SET', this.#prefix + key, value, 'PX', String(Math.max(1, Math.ceil(ttlMs)))]);
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const answer = await this.#command(['SET', this.#prefix + key, value, 'PX', String(Math.max(1, Math.ceil(ttlMs))), 'NX']);
    return answer !== null && answer !== undefined;
  }

  async increment(key: string, windowMs: number, limit = 0): Promise<{ count: number; resetInMs: number }> {
    const name = this.#prefix + key;
    const ms = String(Math.max(1, Math.ceil(windowMs)));
    const now = Date.now();
    const until = this.#countingUntil.get(key);
    // the first start of a window (most are: a visitor's, a person's) is one command
    if (until === undefined || until <= now) {
      if (await this.#command(['SET', name, '1', 'PX', ms, 'NX'])) {
        this.#counting(key, now + windowMs);
        return { count: 1, resetInMs: windowMs };
      }
    }
    // INCR keeps the key's expiry, so a window is never extended
    const count = Number(await this.#command(['INCR', name]));
    this.#counting(key, now + windowMs);
    if (count === 1) {
      // the window ended since it was last counted: this count begins the next one
      await this.#command(['PEXPIRE', name, ms]);
      return { count, resetInMs: windowMs };
    }
    // below the limit its end is not asked: at the latest a whole window from now
    if (limit > 0 && count < limit) return { count, resetInMs: windowMs };
    let ttl = Number(await this.#command(['PTTL', name]));
    if (ttl === -1) {
      // a count whose expiry was never set (its node gone between the two commands) gets one here,
      // so a counter can refuse for one window at the most
      await this.#command(['PEXPIRE', name, ms]);
      ttl = windowMs;
    }
    if (ttl > 0) this.#counting(key, now + ttl);
    return { count, resetInMs: ttl > 0 ? ttl : 1 };
  }

  #counting(key: string, until: number): void {
    // bounded: a flood of counters only empties what is known, and each is counted as if new
    if (this.#countingUntil.size >= COUNTERS_KNOWN) this.#countingUntil.clear();
    this.#countingUntil.set(key, until);
  }

  async decrement(key: string): Promise<void> {
    await this.#command(['EVAL', DECREMENT, '1', this.#prefix + key]);
  }

  /** GETDEL (Redis 6.2 and later): read and gone in one command. */
  async take(key: string): Promise<string | null> {
    const value = await this.#command(['GETDEL', this.#prefix + key]);
    return value === null || value === undefined ? null : String(value);
  }

  async delete(key: string): Promise<void> {
    await this.#command(['DEL', this.#prefix + key]);
  }

  async deleteIfEqual(key: string, value: string): Promise<void> {
    await this.#command(['EVAL', DELETE_IF_EQUAL, '1', this.#prefix + key, value]);
  }

  async extendIfEqual(key: string, value: string, ttlMs: number): Promise<boolean> {
    return Number(await this.#command(['EVAL', EXTEND_IF_EQUAL, '1', this.#prefix + key, value, String(Math.max(1, Math.ceil(ttlMs)))])) === 1;
  }
}
