/** Strings at least this long are spliced into the JSON text instead of being escaped by JSON.stringify. */
const LARGE = 64 * 1024;
const JSON_SAFE = /^[A-Za-z0-9+/=_-]*$/;

/**
 * JSON text of a request body. A 50 MB file is a 67 MB base64 string, and JSON.stringify
 * scans and copies it in one long task; base64 needs no escaping, so large strings made only
 * of base64 characters are spliced in whole.
 */
export function serializeJson(body: unknown): string {
  const large: string[] = [];
  const marker = `esign-large-${Math.random().toString(36).slice(2)}-`;
  const text = JSON.stringify(body, (_, value: unknown) => {
    if (typeof value === 'string' && value.length >= LARGE && JSON_SAFE.test(value)) {
      large.push(value);
      return `${marker}${large.length - 1}`;
    }
    return value;
  });
  if (!large.length) return text;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the marker's index is one this function wrote
  return text.replace(new RegExp(`${marker}(\\d+)`, 'g'), (_, index: string) => large[Number(index)] as string);
}
