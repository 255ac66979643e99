import { createHash } from 'node:crypto';
import { START_SHAPES, START_TEXT_LIMIT } from '../protocol/proxy-rules.js';
import { InvalidField } from './fields.js';

const SHAPES: Record<string, RegExp> = Object.fromEntries(Object.entries(START_SHAPES).map(([name, source]) => [name, new RegExp(source)]));

/** Throws InvalidField for a start field of a shape the service would never take. */
export function checkStartFields(fields: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const shape = SHAPES[name];
    if (shape ? !shape.test(value) : value.length > START_TEXT_LIMIT) throw new InvalidField(name);
  }
}

/** A fixed-size key for the store, whatever the size of what it counts or binds. */
export function storeKey(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}
