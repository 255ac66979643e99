import { isOneOf } from '../protocol/checks.js';
/**
 * Whether a request may come from where it says it comes from. A browser names the page's
 * origin in `Origin` (and, in current browsers, `Sec-Fetch-Site`); a request whose page is of
 * another site is refused unless its origin is listed. Requests without either header are not
 * from a browser page, and are left to the other rules (binding, limits, authorize).
 *
 * The page's scheme counts: `schemes` are those the host's own pages are served over, so that a
 * plain `http://` page of the same host name (anything on the network path can write one) is
 * another origin for an https host.
 */
export function isAllowedOrigin(
  header: (name: string) => string | null,
  ownHost: string | null,
  allowedOrigins: readonly string[],
  schemes: readonly PageScheme[],
): boolean {
  const origin = header('origin');
  if (origin !== null && allowedOrigins.includes(origin)) return true;
  if (header('sec-fetch-site') === 'cross-site') return false;
  if (origin === null) return true;
  if (origin === 'null' || !URL.canParse(origin)) return false;
  const url = new URL(origin);
  return ownHost !== null && url.host === ownHost.toLowerCase() && isOneOf(schemes, url.protocol.slice(0, -1));
}

export type PageScheme = 'http' | 'https';

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/**
 * The schemes the host's pages are served over: what the host says; else https when the request
 * came over TLS; else, for a request over plain http, https too (TLS ends at a load balancer in
 * front) and http only on a loopback address (a developer's machine), where no network path lies
 * between the page and the proxy.
 */
export function pageSchemes(configured: PageScheme | undefined, secure: boolean, host: string | null): readonly PageScheme[] {
  if (configured) return [configured];
  if (secure) return ['https'];
  return host !== null && LOOPBACK.test(host) ? ['https', 'http'] : ['https'];
}

/** `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(value: string | null): boolean {
  return value !== null && /^application\/json\s*(;|$)/i.test(value.trim());
}
