import { nothing } from 'lit';

/**
 * Text for a child position that may be empty. An empty string rendered on the server leaves no
 * text node, and hydration then writes the first real text into the closing marker comment
 * (lit/lit#4937); `nothing` hydrates correctly.
 */
export function textOrNothing(value: string | null | undefined): string | typeof nothing {
  return value || nothing;
}
