/**
 * Whether a request may come from where it says it comes from. A browser names the page's
 * origin in `Origin` (and, in current browsers, `Sec-Fetch-Site`); a request whose page is of
 * another site is refused unless its origin is listed. Requests without either header are not
 * from a browser page, and are left to the other rules (binding, limits, authorize).
 */
export function isAllowedOrigin(header: (name: string) => string | null, ownHost: string | null, allowedOrigins: readonly string[]): boolean {
  const origin = header('origin');
  if (origin !== null && allowedOrigins.includes(origin)) return true;
  if (header('sec-fetch-site') === 'cross-site') return false;
  if (origin === null) return true;
  if (origin === 'null' || !URL.canParse(origin)) return false;
  return ownHost !== null && new URL(origin).host === ownHost.toLowerCase();
}

/** `application/json`, with or without parameters such as `charset=utf-8`. */
export function isJsonContentType(value: string | null): boolean {
  return value !== null && /^application\/json\s*(;|$)/i.test(value.trim());
}
