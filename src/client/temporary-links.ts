import type { TemporarySigningLink, TemporarySigningLinkResponse } from '../protocol/types.js';

/** Reads both answer forms of the temporary-link operation into `{url, validUntil}` entries. */
export function readTemporarySigningLinks(response: TemporarySigningLinkResponse): TemporarySigningLink[] {
  const entries =
    'temporary_signing_links' in response && Array.isArray(response.temporary_signing_links)
      ? response.temporary_signing_links
      : 'temporary_signing_link' in response
        ? [response]
        : [];
  return entries.map((entry) => ({
    url: entry.temporary_signing_link,
    validUntil: new Date(Number(entry.valid_until) * 1000),
  }));
}
