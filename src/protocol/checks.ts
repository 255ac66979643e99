/**
 * Small checks both halves use where a value's type is known only once it is looked at: each one
 * replaces a cast by a check, so a value that is not what it should be is caught where it is read.
 */

/** A plain object (not null, not an array), to be read field by field. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether a value is one of a closed list's (a union's values, listed). */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return (list as readonly unknown[]).includes(value);
}

/** The first of a list that is never empty; an empty one is a defect, said as such. */
export function firstOf<T>(list: readonly T[]): T {
  return required(list[0]);
}

/** A value a check before this line made sure of; its absence is a defect, said as such (the stack says where). */
export function required<T>(value: T | null | undefined): T {
  if (value === null || value === undefined) throw new Error('esign-elements: a value checked before is missing');
  return value;
}

/** The keys of a table built from a closed list: its type's keys, in its order. */
export function keysOf<K extends string>(table: Readonly<Partial<Record<K, unknown>>>): K[] {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a table's own keys are the keys of its type (no prototype keys: Object.keys)
  return Object.keys(table) as K[];
}

/** What was thrown, said: an Error's message, a string as it is, anything else nothing. */
export function thrownMessage(thrown: unknown): string | undefined {
  if (thrown instanceof Error) return thrown.message;
  return typeof thrown === 'string' ? thrown : isRecord(thrown) && typeof thrown['message'] === 'string' ? thrown['message'] : undefined;
}

/** The name of what was thrown (an Error's, or a like object's, as PDF.js throws). */
export function thrownName(thrown: unknown): string | undefined {
  if (thrown instanceof Error) return thrown.name;
  return isRecord(thrown) && typeof thrown['name'] === 'string' ? thrown['name'] : undefined;
}
