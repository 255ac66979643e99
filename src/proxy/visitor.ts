import { randomBytes } from 'node:crypto';

/** The visitor cookie: `__Host-` prefixed (so no subdomain can set it) when served over https. */
export function visitorCookieName(secure: boolean): string {
  return secure ? '__Host-esign-visitor' : 'esign-visitor';
}

const COOKIE_VALUE = /^[A-Za-z0-9_-]{16,64}$/;

/** The value of the first cookie called `name` in a Cookie header, when it has the form of a visitor id. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  // each cookie in turn, without splitting the header (a poll reads it every second)
  for (let start = 0; start < header.length; ) {
    let end = header.indexOf(';', start);
    if (end < 0) end = header.length;
    const eq = header.indexOf('=', start);
    if (eq >= 0 && eq < end && header.slice(start, eq).trim() === name) {
      const value = header.slice(eq + 1, end).trim();
      return COOKIE_VALUE.test(value) ? value : null;
    }
    start = end + 1;
  }
  return null;
}

export function newVisitorId(): string {
  return randomBytes(18).toString('base64url');
}

export function visitorCookie(name: string, id: string, secure: boolean): string {
  return `${name}=${id}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/**
 * The proxy's own visitor id in a Cookie header (when no `visitor` hook names the host's session):
 * what `result.visitor` was for that browser. `secure` as the proxy's `secureCookie` (https: the
 * `__Host-` cookie, which no subdomain can set).
 */
export function visitorFromCookie(header: string | null | undefined, { secure }: { secure: boolean }): string | null {
  return readCookie(header ?? null, visitorCookieName(secure));
}
