/**
 * A JSON value's fields when it is an object (an array's too, by index), or undefined: what the
 * sandbox reads of a body before its own checks of each field.
 */
export function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value)) : undefined;
}
