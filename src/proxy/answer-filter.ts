/**
 * Takes every occurrence of the access token out of a parsed answer: in every string value and
 * every key, however the service's JSON spelled it (escapes included, since this works on the
 * parsed value). Returns the same value when nothing changed.
 */
export function redactToken(value: unknown, token: string): { value: unknown; changed: boolean } {
  let changed = false;
  const clean = (text: string): string => {
    if (!text.includes(token)) return text;
    changed = true;
    return text.split(token).join('[redacted]');
  };
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return clean(item);
    if (Array.isArray(item)) return item.map(walk);
    if (item && typeof item === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(item)) out[clean(key)] = walk(inner);
      return out;
    }
    return item;
  };
  const result = walk(value);
  return { value: changed ? result : value, changed };
}

/**
 * Whether the answer's text can hold the token at all. Without a backslash every JSON string
 * is its own text, so a token absent from the text is absent from the value and the text can go
 * to the browser as it came (no second serialisation of a large signed file).
 */
export function mayHoldToken(text: string, token: string): boolean {
  return text.includes('\\') || text.includes(token);
}

import { SCREENING_FIELDS } from '../protocol/proxy-rules.js';

export { SCREENING_FIELDS };

/**
 * The answer without PEP and sanctions data, wherever in it they are (a service that nests them
 * in a person object, or in a list, keeps them there); true when some was there.
 */
export function withoutScreening(value: Record<string, unknown>): { value: Record<string, unknown>; changed: boolean } {
  let changed = false;
  const walk = (item: unknown): unknown => {
    if (Array.isArray(item)) {
      const out = item.map(walk);
      return out.some((inner, i) => inner !== item[i]) ? out : item;
    }
    if (!item || typeof item !== 'object') return item;
    let out: Record<string, unknown> | null = null;
    for (const [key, inner] of Object.entries(item)) {
      const screening = (SCREENING_FIELDS as readonly string[]).includes(key);
      const clean = screening ? undefined : walk(inner);
      if (screening || clean !== inner) {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an object of the parsed answer (checked by the caller)
        out ??= { ...(item as Record<string, unknown>) };
        changed = true;
        if (screening) delete out[key];
        else out[key] = clean;
      }
    }
    return out ?? item;
  };
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- walk keeps an object an object
  const result = walk(value) as Record<string, unknown>;
  return { value: result, changed };
}
