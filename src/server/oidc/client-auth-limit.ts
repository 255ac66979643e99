import type { IncomingMessage } from 'node:http';
import type { ProxyStore } from '../../proxy/store.js';
import { isLoopback } from '../settings.js';
import { storeName } from './store-adapter.js';

/*
 * Failed client authentications at the token endpoint, counted in the proxy's store (so every
 * node counts alike) per network address and per client. Past a limit, the token endpoint answers
 * 429 with Retry-After until the window ends: a script guessing a client's secret is slowed to a
 * few tries in ten minutes. The address's limit is the lower one; the client's is higher, since a
 * stranger can spend it too (the client's own logins then wait, said in the log at once).
 */

export interface ClientAuthLimits {
  perAddress: number;
  perClient: number;
  windowMs: number;
}

export const CLIENT_AUTH_LIMITS: ClientAuthLimits = { perAddress: 10, perClient: 100, windowMs: 10 * 60_000 };

export interface Blocked {
  scope: 'address' | 'client';
  retryAfterS: number;
}

/** The client id of an HTTP Basic authorization, as RFC 6749 encodes it (form-urlencoded inside). */
export function basicClientId(header: string | undefined): string | null {
  if (!header || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

export function clientAuthLimit(store: ProxyStore, secret: string, limits: ClientAuthLimits, now = Date.now) {
  const counter = (scope: Blocked['scope'], who: string) => `oidc:auth-failed:${scope}:${storeName(secret, `auth-failed:${scope}`, who)}`;
  const block = (scope: Blocked['scope'], who: string) => `${counter(scope, who)}:blocked`;
  return {
    /** Whether this address, or this client, is past its limit: the refusal's scope and its wait. */
    async blocked(address: string | null, clientId: string | null): Promise<Blocked | null> {
      const asked: [Blocked['scope'], string | null][] = [
        ['address', address],
        ['client', clientId],
      ];
      for (const [scope, who] of asked) {
        if (who === null) continue;
        const until = await store.get(block(scope, who));
        if (until !== null) return { scope, retryAfterS: Math.max(1, Math.ceil((Number(until) - now()) / 1000)) };
      }
      return null;
    },
    /** One more failure of this address and client; the scopes that just reached their limit. */
    async failed(address: string | null, clientId: string | null): Promise<Blocked['scope'][]> {
      const reached: Blocked['scope'][] = [];
      const asked: [Blocked['scope'], string | null, number][] = [
        ['address', address, limits.perAddress],
        ['client', clientId, limits.perClient],
      ];
      for (const [scope, who, limit] of asked) {
        if (who === null) continue;
        const { count, resetInMs } = await store.increment(counter(scope, who), limits.windowMs, limit);
        if (count >= limit && (await store.setIfAbsent(block(scope, who), String(now() + resetInMs), resetInMs))) reached.push(scope);
      }
      return reached;
    },
  };
}

/**
 * The caller's address: the front's last X-Forwarded-For hop when it is trusted, else the socket's;
 * none when that is this machine (nginx in front, untrusted): one address for everybody, which a
 * stranger's failures would close to every site.
 */
export function addressOf(req: IncomingMessage, trustProxy: boolean): string | null {
  if (trustProxy) {
    const hops = String(req.headers['x-forwarded-for'] ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    if (hops.length) return hops.at(-1) ?? null;
  }
  const socket = req.socket.remoteAddress ?? null;
  return socket === null || isLoopback(socket.replace(/^::ffff:/, '')) ? null : socket;
}
