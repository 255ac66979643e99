import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { proxyEventSchema } from '../../src/proxy/event-schema.js';

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(proxyEventSchema());

/**
 * Every event fits the one schema of the three proxies' events (src/proxy/event-schema.ts), and the
 * kinds the suite expects were among them: a proxy that renames a field, adds one or writes a
 * person in clear fails here.
 */
export function assertProxyEvents(events: readonly unknown[], who: string, types: readonly string[] = ['started', 'finished', 'refused']): void {
  for (const event of events) {
    assert.ok(validate(event), `${who}: ${JSON.stringify(event)} does not fit the events' schema: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
  }
  const seen = new Set(events.map((event) => (event as { type?: unknown }).type));
  for (const type of types) assert.ok(seen.has(type), `${who}: a ${type} event among ${events.length}`);
}
