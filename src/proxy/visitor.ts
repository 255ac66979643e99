import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { remembered, REMEMBERED } from './remembered.js';

/*
 * The proxy's own visitor cookie. The proxy mints every visitor id itself: a random part and a
 * MAC of it under a secret (the `visitorSecret` option, else the access token), so a value planted
 * in a browser (over plain http, from a subdomain without `__Host-`) is not adopted: it is replaced
 * by a new id. The id never appears in an event or a log line, only its keyed digest.
 */

/** The visitor cookie: `__Host-` prefixed (so no subdomain can set it) when served over https. */
export function visitorCookieName(secure: boolean): string {
  return secure ? '__Host-esign-visitor' : 'esign-visitor';
}

const RANDOM_CHARS = 24;
const MAC_CHARS = 22;
const COOKIE_VALUE = /^[A-Za-z0-9_-]{46}$/;

function macOf(random: string, secret: string): string {
  return createHmac('sha256', secret).update(`esign-visitor:${random}`).digest('base64url').slice(0, MAC_CHARS);
}

/** Whether a value is a visitor id this proxy (or one with the same secret) minted. */
export function isMintedVisitor(value: string, secret: string): boolean {
  return COOKIE_VALUE.test(value) && macChecked(secret, value);
}

// a visitor's every poll carries the same cookie: its MAC is checked once, then remembered
const macChecked = remembered(REMEMBERED, (secret, value) =>
  timingSafeEqual(Buffer.from(macOf(value.slice(0, RANDOM_CHARS), secret)), Buffer.from(value.slice(RANDOM_CHARS))),
);

/** The value of the first cookie called `name` in a Cookie header, when this proxy minted it. */
export function readCookie(header: string | null, name: string, secret: string): string | null {
  if (!header) return null;
  // each cookie in turn, without splitting the header (a poll reads it every second)
  for (let start = 0; start < header.length;) {
    let end = header.indexOf(';', start);
    if (end < 0) end = header.length;
    const eq = header.indexOf('=', start);
    if (eq >= 0 && eq < end && header.slice(start, eq).trim() === name) {
      const value = header.slice(eq + 1, end).trim();
      return isMintedVisitor(value, secret) ? value : null;
    }
    start = end + 1;
  }
  return null;
}

export function newVisitorId(secret: string): string {
  const random = randomBytes(18).toString('base64url');
  return random + macOf(random, secret);
}

export function visitorCookie(name: string, id: string, secure: boolean): string {
  return `${name}=${id}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** A visitor as events and logs show them: a keyed digest, the same for one visitor, never the value that authenticates them. */
export function visitorDigest(id: string, key: string): string {
  return digestOf(key, id);
}

const digestOf = remembered(REMEMBERED, (key, id) => createHmac('sha256', key).update(`visitor:${id}`).digest('hex'));

/**
 * The proxy's own visitor id in a Cookie header (when no `visitor` hook names the host's session):
 * what `result.visitor` was for that browser, or null when there is none or it was not minted by
 * the proxy. `secure` as the proxy's `secureCookie` (https: the `__Host-` cookie, which no
 * subdomain can set); `secret` as its `visitorSecret`, or its access token when none is set.
 */
export function visitorFromCookie(header: string | null | undefined, { secure, secret }: { secure: boolean; secret: string }): string | null {
  return readCookie(header ?? null, visitorCookieName(secure), secret);
}
