import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Channel } from '../protocol/types.js';
import type { ProxyRequestInfo, ProxyResult, ProxySigner, ResultAnswer } from '../proxy/options.js';

/*
 * The verified result as a Standard Webhooks delivery to the host's own server, before the browser
 * sees it: `webhook-id` (the same for every try of one result: the host's idempotency key),
 * `webhook-timestamp`, and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body` under each `whsec_` secret, so a secret can be rotated). The delivery carries
 * the cookies of the browser whose poll finished the session, and the `Set-Cookie` of the host's
 * 2xx answer goes to that browser with the result. Tried again until the host says 2xx, within the
 * result's time limit; then the browser is told the host could not take it (500), and its next
 * poll tries again.
 */

export interface WebhookTarget {
  url: string;
  /** The secrets' keys, the first the current one; every one signs. */
  keys: Buffer[];
}

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** The keys of `whsec_<base64>` secrets, comma-separated; null when one is not such a secret. */
export function webhookKeys(secrets: string): Buffer[] | null {
  const keys: Buffer[] = [];
  for (const secret of secrets.split(',').map((s) => s.trim()).filter(Boolean)) {
    const found = SECRET.exec(secret);
    if (!found) return null;
    const key = Buffer.from(found[1]!, 'base64');
    if (key.length < 24) return null;
    keys.push(key);
  }
  return keys.length ? keys : null;
}

/** The `webhook-signature` value: a `v1,<base64>` signature per key, space-separated. */
export function signature(keys: readonly Buffer[], id: string, timestamp: number, body: string): string {
  return keys.map((key) => `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`).join(' ');
}

/** The event types of the deliveries, by a result's kind. */
export const EVENT_TYPES = { login: 'login.verified', sign: 'sign.verified', hash: 'hash.verified', document: 'document.succeeded' } as const;

/** What the host gets, as JSON: `{type, timestamp, data}` in the Standard Webhooks form. */
export interface Delivery {
  type: (typeof EVENT_TYPES)[keyof typeof EVENT_TYPES];
  timestamp: string;
  data: {
    kind: ProxyResult['kind'];
    operation: ProxyResult['operation'];
    /** The session token (sessions) or the document uuid. */
    token: string;
    /**
     * The visitor who started it: the proxy's own visitor id, or with ESIGN_VISITOR_COOKIE a keyed
     * digest of the site's session cookie (the delivery's Cookie header carries the session itself).
     */
    visitor: string;
    channel?: Channel;
    /** The service's verified answer in camelCase, typed by the operation (screening data included). */
    result: ProxyResult['result'];
  };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** A POST signed as a delivery, with the browser's cookies. */
function post(target: WebhookTarget, id: string, body: string, cookie: string | null, signal: AbortSignal): Promise<Response> {
  const timestamp = Math.floor(Date.now() / 1000);
  return fetch(target.url, {
    method: 'POST',
    redirect: 'manual',
    signal,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature(target.keys, id, timestamp, body),
      ...(cookie ? { cookie } : {}),
    },
    body,
  });
}

/** onResult as a delivery: resolves with the host's cookies once it answered 2xx; throws when the time ran out. */
export function deliverResults(target: WebhookTarget): (result: ProxyResult) => Promise<ResultAnswer> {
  return async (result) => {
    const id = `msg_${createHash('sha256').update(`${result.operation}:${result.token}`).digest('base64url').slice(0, 24)}`;
    const delivery: Delivery = {
      type: EVENT_TYPES[result.kind],
      timestamp: new Date().toISOString(),
      data: { kind: result.kind, operation: result.operation, token: result.token, visitor: result.visitor, ...('channel' in result ? { channel: result.channel } : {}), result: result.result },
    };
    const body = JSON.stringify(delivery);
    const cookie = result.request.headers.get('cookie');
    let last = 'no answer';
    for (let attempt = 0; !result.signal.aborted; attempt++) {
      try {
        const answer = await post(target, id, body, cookie, result.signal);
        await answer.arrayBuffer().catch(() => undefined);
        if (answer.status >= 200 && answer.status < 300) return { setCookies: answer.headers.getSetCookie() };
        last = `HTTP ${answer.status}`;
      } catch (error) {
        if (result.signal.aborted) break;
        last = error instanceof Error ? error.name : 'failure';
      }
      await sleep(Math.min(250 * 2 ** attempt, 4_000), result.signal);
    }
    throw new Error(`the webhook did not take the result in time (${last})`);
  };
}

/** The signer hook by asking the host: a signed POST with the browser's cookies; the host answers the person or null. */
export function askSigner(target: WebhookTarget): (request: ProxyRequestInfo) => Promise<ProxySigner | null> {
  return async (request) => {
    const id = `msg_${randomBytes(18).toString('base64url')}`;
    const body = JSON.stringify({ type: 'signer.asked', timestamp: new Date().toISOString(), data: { path: request.path } });
    const answer = await post(target, id, body, request.headers.get('cookie'), AbortSignal.timeout(10_000));
    const text = await answer.text();
    if (answer.status === 204 || (answer.ok && (text.trim() === '' || text.trim() === 'null'))) return null;
    if (!answer.ok) throw new Error(`the signer URL answered HTTP ${answer.status}`);
    const person: unknown = JSON.parse(text);
    // checked by the gate like any signer() answer (a person without a country is a setup error)
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- checked by the signer step like any signer() answer
    return person as ProxySigner | null;
  };
}
