import { randomBytes } from 'node:crypto';

/** The visitor cookie: `__Host-` prefixed (so no subdomain can set it) when served over https. */
export function visitorCookieName(secure: boolean): string {
  return secure ? '__Host-esign-visitor' : 'esign-visitor';
}

export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{16,64}$/.test(value) ? value : null;
    }
  }
  return null;
}

export function newVisitorId(): string {
  return randomBytes(18).toString('base64url');
}

export function visitorCookie(name: string, id: string, secure: boolean): string {
  return `${name}=${id}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
