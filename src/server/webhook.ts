import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Channel } from '../protocol/types.js';
import { ResultRefused } from '../proxy/hand-over.js';
import type { ProxyRequestInfo, ProxyResult, ProxySigner, SignedAs } from '../proxy/options.js';
import { visitorCookieName, visitorDigest } from '../proxy/visitor.js';

/*
 * The verified result as a Standard Webhooks delivery to the host's own server, before the browser
 * sees it: `webhook-id` (the same for every try of one result: the host's idempotency key),
 * `webhook-timestamp`, and `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of
 * `id.timestamp.body` under each `whsec_` secret, so a secret can be rotated). A delivery is a fact
 * (a signed file, a document's state, a login as a notification): it carries no cookie of the
 * browser, and nothing of the host's answer reaches a browser, so no delivery can log anyone in
 * (that is the OpenID Connect login's). Tried again until the host says 2xx, within the result's
 * time limit; then the browser is told the host could not take it (500), and its next poll tries
 * again. Each try that failed and the outcome are log lines with the webhook-id and the request id.
 */

export interface WebhookTarget {
  url: string;
  /** The secrets' keys, the first the current one; every one signs. */
  keys: Buffer[];
  /** Which of the browser's cookies the signer question carries: the site's session cookie, say; never the proxy's own. */
  cookies: CookieChoice;
}

/** A line for the operator about a delivery: its level, the words, and what names it. */
export type DeliveryLog = (level: 'info' | 'warn' | 'error', msg: string, fields: Record<string, string | number>) => void;

/** The browser's cookies the signer question carries: those named, or every one but the proxy's own visitor cookie. */
export type CookieChoice = { names: readonly string[] } | 'all-but-the-proxys';

/** The most of the signer URL's answer read: a country and a code need far less; more is the site's fault and fails closed. */
export const SIGNER_ANSWER_LIMIT = 64 * 1024;

const SECRET = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** The keys of `whsec_<base64>` secrets, comma-separated; null when one is not such a secret. */
export function webhookKeys(secrets: string): Buffer[] | null {
  const keys: Buffer[] = [];
  for (const secret of secrets
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const encoded = SECRET.exec(secret)?.[1];
    if (encoded === undefined) return null;
    const key = Buffer.from(encoded, 'base64');
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
     * The visitor who started it, as a keyed digest (HMAC-SHA256 of `visitor:<id>` under the event
     * secret, hex: the one events show): never a credential.
     */
    visitor: string;
    channel?: Channel;
    /** A signing's and a hash signing's signer: the person the site said is signed in, else the start's. */
    signer?: SignedAs;
    /** The service's verified answer in camelCase, typed by the operation (screening data included). */
    result: ProxyResult['result'];
  };
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The Cookie header the signer question carries: only the cookies chosen, never the proxy's own visitor cookie. */
export function forwardedCookies(header: string | null, choice: CookieChoice): string | null {
  if (!header) return null;
  const own = [visitorCookieName(true), visitorCookieName(false)];
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => {
      const name = part.slice(0, Math.max(0, part.indexOf('='))).trim();
      if (!name || own.includes(name)) return false;
      return choice === 'all-but-the-proxys' || choice.names.includes(name);
    });
  return kept.length ? kept.join('; ') : null;
}

/** A POST signed as a delivery; the signer question's with the browser's cookies chosen. */
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

/** The site's refusal for good: a 4xx but for 408 (its own time-out) and 429 (come back later), which are tried again. */
const refusesForGood = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

/** A result's `webhook-id`: the same for every try of it, and across a restart of the proxy. */
export function deliveryId(result: Pick<ProxyResult, 'operation' | 'token'>): string {
  return `msg_${createHash('sha256').update(`${result.operation}:${result.token}`).digest('base64url').slice(0, 24)}`;
}

/**
 * onResult as a delivery: resolves once the host answered 2xx; throws ResultRefused at a 4xx (the
 * session ends with site-refused), or when the time ran out. The site's answer is never read, and
 * nothing of it goes to a browser.
 */
export function deliverResults(
  target: WebhookTarget,
  eventKey: string,
  log: DeliveryLog,
): (result: ProxyResult, as?: { notification: boolean }) => Promise<void> {
  return async (result, { notification } = { notification: false }) => {
    const id = deliveryId(result);
    const delivery: Delivery = {
      type: EVENT_TYPES[result.kind],
      timestamp: new Date().toISOString(),
      data: {
        kind: result.kind,
        operation: result.operation,
        token: result.token,
        visitor: visitorDigest(result.visitor, eventKey),
        ...('channel' in result ? { channel: result.channel } : {}),
        ...('signer' in result && result.signer ? { signer: result.signer } : {}),
        result: result.result,
      },
    };
    const body = JSON.stringify(delivery);
    const named = { webhookId: id, requestId: result.request.requestId, type: delivery.type };
    let last = 'no answer';
    let attempt = 0;
    for (; !result.signal.aborted; attempt++) {
      try {
        const answer = await post(target, id, body, null, result.signal);
        // unread: whatever the site sends back, however large, is not the proxy's to hold
        await answer.body?.cancel().catch(() => undefined);
        if (answer.status >= 200 && answer.status < 300) {
          log('info', 'the webhook took the delivery', { ...named, attempts: attempt + 1 });
          return;
        }
        if (refusesForGood(answer.status)) {
          log('warn', `the webhook refused the delivery: HTTP ${answer.status}`, { ...named, attempts: attempt + 1 });
          throw new ResultRefused(answer.status, `the webhook refused the result: HTTP ${answer.status}`);
        }
        last = `HTTP ${answer.status}`;
      } catch (error) {
        if (error instanceof ResultRefused) throw error;
        if (result.signal.aborted) break;
        last = error instanceof Error ? causeOf(error) : 'failure';
      }
      const pause = Math.min(250 * 2 ** attempt, 4_000);
      log('warn', `the webhook did not take the delivery (${last}): trying again`, { ...named, attempt: attempt + 1, retryInMs: pause });
      await sleep(pause, result.signal);
    }
    const after = notification ? 'a notification of a login that went on without it, not sent again' : "the session's next poll tries again";
    log('error', `the webhook did not take the delivery in time (${last}): ${after}`, { ...named, attempts: attempt });
    throw new Error(`the webhook ${shownUrl(target.url)} did not take the result in time (${last})`);
  };
}

/** A URL as a log line may show it: no user or password. */
function shownUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/** What a failed fetch says of its cause: the system's code (ECONNREFUSED, ENOTFOUND, ...), not "TypeError: fetch failed". */
export function causeOf(error: Error): string {
  const cause: unknown = error.cause;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return error.name === 'TypeError' ? error.message : error.name;
}

/** The answer's text, at most `limit` bytes: more is an error (the stream is dropped at once). */
async function boundedText(answer: Response, limit: number): Promise<string> {
  const declared = Number(answer.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await answer.body?.cancel().catch(() => undefined);
    throw new Error(`the signer URL answered more than ${limit} bytes`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = answer.body?.getReader();
  for (let read = await reader?.read(); reader && read && !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`the signer URL answered more than ${limit} bytes`);
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The signer hook by asking the host: a signed POST with the browser's cookies chosen; the host
 * answers the person or null. A browser that brings none of those cookies is nobody's: the site
 * is not asked.
 */
export function askSigner(target: WebhookTarget): (request: ProxyRequestInfo) => Promise<ProxySigner | null> {
  return async (request) => {
    const cookie = forwardedCookies(request.headers.get('cookie'), target.cookies);
    if (!cookie) return null;
    const id = `msg_${randomBytes(18).toString('base64url')}`;
    const body = JSON.stringify({ type: 'signer.asked', timestamp: new Date().toISOString(), data: { path: request.path } });
    const answer = await post(target, id, body, cookie, AbortSignal.timeout(10_000));
    const text = await boundedText(answer, SIGNER_ANSWER_LIMIT);
    if (answer.status === 204 || (answer.ok && (text.trim() === '' || text.trim() === 'null'))) return null;
    if (!answer.ok) throw new Error(`the signer URL answered HTTP ${answer.status}`);
    const person: unknown = JSON.parse(text);
    // checked by the gate like any signer() answer (a person without a country is a setup error)
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- checked by the signer step like any signer() answer
    return person as ProxySigner | null;
  };
}
