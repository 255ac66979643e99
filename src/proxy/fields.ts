import type { OperationId } from '../protocol/operations.js';
import { OPERATION_FIELDS, type FieldShape } from '../protocol/proxy-rules.js';
import { isRecord } from '../protocol/checks.js';

/*
 * The fields each operation may carry, with their JSON types, from the service's interface and
 * what is known beyond it. Only these go up to the service: anything else the browser sends (an
 * `access_token` in any spelling, a URL parameter repeated in the body, a nested extra) is
 * dropped; a known field of the wrong type is refused with 400 naming it.
 */

type Shape = FieldShape;
export { OPERATION_FIELDS };

export class InvalidField extends Error {
  constructor(readonly field: string) {
    super(`invalid field ${field}`);
  }
}

function pick(shape: Shape, value: unknown, path: string): unknown {
  if (shape === 'string') {
    if (typeof value !== 'string') throw new InvalidField(path);
    return value;
  }
  if (shape === 'boolean') {
    if (typeof value !== 'boolean') throw new InvalidField(path);
    return value;
  }
  if (shape === 'integer') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new InvalidField(path);
    return value;
  }
  if ('array' in shape) {
    if (!Array.isArray(value)) throw new InvalidField(path);
    return value.map((item, i) => pick(shape.array, item, `${path}.${i}`));
  }
  if (!isRecord(value)) throw new InvalidField(path);
  return pickObject(shape.object, value, `${path}.`);
}

function pickObject(shapes: Record<string, Shape>, value: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, shape] of Object.entries(shapes)) {
    if (!Object.hasOwn(value, name) || value[name] === undefined) continue;
    out[name] = pick(shape, value[name], `${prefix}${name}`);
  }
  return out;
}

/** The operation's own fields of a body, typed; throws InvalidField for a known field of the wrong type. */
export function operationFields(id: OperationId, body: Record<string, unknown>): Record<string, unknown> {
  return pickObject(OPERATION_FIELDS[id], body, '');
}
