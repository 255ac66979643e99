import type { OperationId } from '../../client/operations.js';
import { addressKey } from '../address.js';
import { ProxyRefusal, proxyError } from '../errors.js';
import { STARTS } from '../operation-kinds.js';
import type { RateLimit } from '../options.js';
import { storeKey } from '../start-rules.js';
import type { Exchange, Step } from './exchange.js';
import type { ProxySetup } from './setup.js';

/**
 * Counts a start under `key` (kept as a fixed-size digest: no personal code in clear, whatever
 * its size); returns the store key it counted under, or null when this limit is off.
 */
async function count({ store }: ProxySetup, scope: string, rule: RateLimit | false | undefined, key: string): Promise<string | null> {
  if (!rule) return null;
  const counter = `limit:${scope}:${storeKey(key)}`;
  const { count, resetInMs } = await store.increment(counter, rule.windowMs);
  if (count > rule.limit) {
    const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
    throw new ProxyRefusal(proxyError('rate-limited', { retry_after: seconds }, { 'retry-after': String(seconds) }));
  }
  return counter;
}

/** The keys of the person a start is for: their personal code, and their phone for Mobile-ID. */
function personKeys(id: OperationId, fields: Record<string, unknown>): string[] {
  const keys: string[] = [];
  const code = fields['code'];
  if (typeof code === 'string') keys.push(`code:${code.replace(/-/g, '')}`);
  const phone = fields['phone'];
  if (typeof phone === 'string' && id.startsWith('mobile')) keys.push(`phone:${phone.replace(/\D/g, '')}`);
  return keys;
}

/** The browser's network address for the per-address limit, when the host says it. */
async function addressOf(x: Exchange, { options, limits, askHost }: ProxySetup): Promise<{ address: string; key: string } | null> {
  const hook = options.clientAddress;
  if (!hook || !limits.perAddress) return null;
  const address = await askHost('clientAddress', () => hook(x.asked));
  return typeof address === 'string' && address.trim() ? { address: address.trim().slice(0, 64), key: addressKey(address) } : null;
}

/**
 * Limits: a session start counts against its visitor, its network address (when the host gives
 * it) and its person; over any of them it is refused with the seconds to wait.
 */
export const limits: Step = (x, setup) => (STARTS[x.operation.id] ? countStart(x, setup) : undefined);

async function countStart(x: Exchange, setup: ProxySetup): Promise<void> {
  await count(setup, 'visitor', setup.limits.perVisitor, x.visitor.key);
  const address = await addressOf(x, setup);
  if (address) {
    x.event.base.address = address.address;
    await count(setup, 'address', setup.limits.perAddress, address.key);
  }
  for (const key of personKeys(x.operation.id, x.fields)) {
    const counter = await count(setup, 'person', setup.limits.perPerson, key);
    if (counter) x.personCounters.push(counter);
  }
};
