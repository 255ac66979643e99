import type { OperationId } from '../../protocol/operations.js';
import { addressKey } from '../address.js';
import { ProxyRefusal, proxyError } from '../errors.js';
import type { RateLimitName } from '../events.js';
import { STARTS } from '../operation-kinds.js';
import type { RateLimit } from '../options.js';
import { canonicalPersonCode, startCountry } from '../person.js';
import { storeKey } from '../start-rules.js';
import type { Step, Has } from './exchange.js';
import { BUSY_RETRY_AFTER } from '../pressure.js';
import type { ProxySetup } from './setup.js';

/**
 * Counts a start under `key` (kept as a fixed-size digest: no personal code in clear, whatever
 * its size); returns the store key it counted under, or null when this limit is off.
 */
/** The store key a start is counted under, for a scope and what it counts (a visitor's key, an address's, a person's). */
export function counterKey(scope: RateLimitName, key: string): string {
  return `limit:${scope}:${storeKey(key)}`;
}

async function count(setup: ProxySetup, scope: RateLimitName, rule: RateLimit | false | undefined, key: string): Promise<string | null> {
  if (!rule) return null;
  const counter = counterKey(scope, key);
  const { count, resetInMs } = await setup.store.increment(counter, rule.windowMs, rule.limit + 1);
  if (count > rule.limit) {
    const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
    sayRefusal(setup, scope);
    throw new ProxyRefusal(proxyError('rate-limited', { retry_after: seconds }, { 'retry-after': String(seconds) }), { limit: scope });
  }
  return counter;
}

/** How often, at most, the log says how many starts the limits refused. */
const SAY_REFUSALS_EVERY_MS = 60_000;

/**
 * A start a limit refused, for the operator: counted, and said at most once a minute in one line
 * (the first at once), however many come; each is also a `refused` event with its limit.
 */
export function sayRefusal({ limitRefusals: tally, log }: Pick<ProxySetup, 'limitRefusals' | 'log'>, scope: RateLimitName, now = Date.now()): void {
  const counts = tally.counts;
  counts[scope] += 1;
  if (now - tally.saidAt < SAY_REFUSALS_EVERY_MS) return;
  const total = counts.visitor + counts.person + counts.address + counts.node;
  const what =
    tally.saidAt === -Infinity
      ? `refused a session start (${scope === 'node' ? 'this node under a burst' : `its ${scope} limit`}); further refusals are counted and said at most once a minute`
      : `refused ${total} session ${total === 1 ? 'start' : 'starts'} in the last ${Math.round((now - tally.since) / 1000)} s (per visitor ${counts.visitor}, per person ${counts.person}, per address ${counts.address}, this node under a burst ${counts.node})`;
  log('warn', `[esign-proxy] the start limits ${what}; each is a refused event with its limit`);
  tally.saidAt = now;
  tally.since = now;
  tally.counts = { visitor: 0, person: 0, address: 0, node: 0 };
}

/**
 * The key of whom a start's push reaches, counted by the per-person limit. Smart-ID pushes to the
 * account of the country and personal code (the same digits in another country are another
 * person, never locked out by these starts). Mobile-ID pushes only when the phone and the code belong together
 * (the service turns a wrong pair away at the status poll, after the start was accepted), so it
 * counts the pair: starts with a person's code and phones that are not theirs, or their phone and
 * other codes, never use up that person's starts, and one phone still gets at most the limit.
 */
export function personKey(id: OperationId, fields: Record<string, unknown>): string | null {
  const code = fields['code'];
  if (typeof code !== 'string') return null;
  const country = startCountry(fields);
  const person = canonicalPersonCode(country, code);
  if (!id.startsWith('mobile')) return `smartid:${country ?? '-'}:${person}`;
  const phone = fields['phone'];
  return typeof phone === 'string' ? `mobile:${person}:${phone.replace(/\D/g, '')}` : `mobile:${person}`;
}

/** The browser's network address for the per-address limit, when the host says it. */
async function addressOf(
  x: Has<'operation' | 'visitor' | 'asked'>,
  { options, limits, askHost }: ProxySetup,
): Promise<{ address: string; key: string } | null> {
  const hook = options.clientAddress;
  if (!hook || !limits.perAddress) return null;
  const address = await askHost('clientAddress', () => hook(x.asked));
  return typeof address === 'string' && address.trim() ? { address: address.trim().slice(0, 64), key: addressKey(address) } : null;
}

/**
 * Limits: a session start counts against its visitor, its network address (when the host gives
 * it) and the person its push would reach; over any of them it is refused with the seconds to wait.
 */
export const limits: Step<'operation' | 'visitor' | 'asked'> = (x, setup) => (STARTS[x.operation.id] ? countStart(x, setup) : undefined);

async function countStart(x: Has<'operation' | 'visitor' | 'asked'>, setup: ProxySetup): Promise<void> {
  // before anything is counted: a start turned away for the node's load uses up nobody's limit
  if (setup.pressure?.busy()) {
    sayRefusal(setup, 'node');
    throw new ProxyRefusal(proxyError('busy', { retry_after: BUSY_RETRY_AFTER }, { 'retry-after': String(BUSY_RETRY_AFTER) }), { limit: 'node' });
  }
  x.leaveStart = setup.pressure?.enter();
  await count(setup, 'visitor', setup.limits.perVisitor, x.visitor.key);
  const address = await addressOf(x, setup);
  if (address) {
    x.event.base.address = address.address;
    await count(setup, 'address', setup.limits.perAddress, address.key);
  }
  const person = personKey(x.operation.id, x.fields);
  const counter = person === null ? null : await count(setup, 'person', setup.limits.perPerson, person);
  if (counter) x.personCounters.push(counter);
}
