import { open } from 'node:fs/promises';
import { recordOf } from '../../service/json.js';
import type { Check, Prober } from '../prober.js';

/*
 * The events a proxy writes while the check runs (`--events <file>`: its JSON lines, as the Python
 * and PHP proxies write them and a Node host's `onEvent` may): each of the kinds and fields the
 * proxy checklist names, nothing more, and no person, phone or access token in clear. The sandbox's
 * own reading of the checklist, apart from the package's JSON Schema of the events.
 */

/** Every field an event may carry, and the fields each kind must. */
const COMMON = ['requestId', 'at', 'durationMs', 'type', 'operation', 'kind', 'channel', 'visitor', 'address', 'userAgent', 'person'];
const KINDS: Record<string, { required: string[]; own: string[] }> = {
  started: { required: [], own: [] },
  finished: { required: ['outcome'], own: ['outcome'] },
  refused: { required: ['reason', 'status'], own: ['reason', 'status', 'limit'] },
  failed: { required: ['failure', 'status'], own: ['failure', 'status'] },
  'host-error': { required: ['hook', 'status'], own: ['hook', 'status'] },
};
const VALUES: Record<string, readonly string[]> = {
  kind: ['login', 'sign', 'hash', 'document'],
  channel: ['mobile', 'smartid'],
  reason: [
    'cross-site',
    'content-type',
    'not-allowed',
    'invalid-field',
    'too-large',
    'timeout',
    'rate-limited',
    'not-your-session',
    'unauthorized',
    'signer-mismatch',
    'signer-unknown',
  ],
  failure: ['service-unreachable', 'service-timeout', 'service-invalid', 'store', 'access-token'],
  hook: ['visitor', 'clientAddress', 'authorize', 'signer', 'onResult'],
  limit: ['visitor', 'person', 'address'],
};
/** A personal code of the three countries, or a Baltic mobile number, written out. */
const PERSON_IN_CLEAR = /\b\d{6}-?\d{5}\b|\+37[0-2]\s?\d{7,8}\b/;

/** What is wrong with one event, or null. */
export function eventProblem(event: Record<string, unknown>, accessToken: string): string | null {
  const type = String(event['type']);
  const kind = KINDS[type];
  if (!kind) return `an event of an unknown type "${type}"`;
  for (const field of ['requestId', 'at', 'durationMs', ...kind.required]) {
    if (!(field in event)) return `a ${type} event without ${field}`;
  }
  const extra = Object.keys(event).find((field) => !COMMON.includes(field) && !kind.own.includes(field));
  if (extra) return `a ${type} event with a field the checklist does not name: ${extra}`;
  if (typeof event['requestId'] !== 'string' || !event['requestId']) return `a ${type} event whose requestId is not a text`;
  if (typeof event['at'] !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(event['at']))
    return `a ${type} event whose at is not an ISO time in UTC with milliseconds`;
  if (!Number.isInteger(event['durationMs']) || Number(event['durationMs']) < 0)
    return `a ${type} event whose durationMs is not a whole number of milliseconds`;
  if ('status' in event && !(Number.isInteger(event['status']) && Number(event['status']) >= 100 && Number(event['status']) <= 599))
    return `a ${type} event whose status is not an HTTP status`;
  if ('operation' in event && !(typeof event['operation'] === 'string' && /^[a-z][A-Za-z]+$/.test(event['operation'])))
    return `a ${type} event whose operation is not an operation's name`;
  if ('visitor' in event && !(typeof event['visitor'] === 'string' && /^[0-9a-f]{64}$/.test(event['visitor'])))
    return `a ${type} event whose visitor is not a keyed digest`;
  for (const [field, allowed] of Object.entries(VALUES)) {
    if (field in event && !allowed.includes(String(event[field])))
      return `a ${type} event whose ${field} is "${String(event[field])}", not one of ${allowed.join(', ')}`;
  }
  const person = event['person'];
  if (person !== undefined) {
    const fields = recordOf(person);
    if (!fields || Object.keys(fields).some((key) => key !== 'code' && key !== 'phone')) return `a ${type} event whose person is not { code, phone } masked`;
  }
  const text = JSON.stringify(event);
  if (PERSON_IN_CLEAR.test(text)) return `a ${type} event with a person's code or phone in clear`;
  if (accessToken && text.includes(accessToken)) return `a ${type} event with the access token in it`;
  return null;
}

/** The events written to the file since the check began: JSON lines with a type (other lines are the proxy's log). */
async function writtenSince(file: string, from: number): Promise<Record<string, unknown>[]> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.max(0, size - from));
    await handle.read(buffer, 0, buffer.length, from);
    const events: Record<string, unknown>[] = [];
    for (const line of buffer.toString('utf8').split('\n')) {
      const start = line.indexOf('{');
      if (start < 0) continue;
      try {
        const event = recordOf(JSON.parse(line.slice(start)));
        if (event && 'type' in event && 'requestId' in event) events.push(event);
      } catch {
        // a log line that is not an event
      }
    }
    return events;
  } finally {
    await handle.close();
  }
}

/** Where the events file ends as the check begins: only what the check's requests made is read. */
export async function eventsMark(file: string | undefined): Promise<number> {
  if (!file) return 0;
  const handle = await open(file, 'a+');
  try {
    return (await handle.stat()).size;
  } finally {
    await handle.close();
  }
}

/** A failure's evidence: the event, with any run of digits long enough to be a person's shown hidden. */
function shown(event: Record<string, unknown>): string {
  return JSON.stringify(event).replace(/\d{6,}/g, (digits) => '•'.repeat(digits.length));
}

export const events: Check = {
  id: 'events',
  rule: "the proxy's events (--events <file>) have the kinds and fields of the checklist, nothing more, and no person, phone or access token in clear",
  async run(prober: Prober) {
    const file = prober.options.events;
    if (!file)
      return {
        skipped:
          'give --events <file>: where the proxy writes its events as JSON lines (the Python and PHP proxies: their error log; a Node host: its onEvent)',
      };
    const written = await writtenSince(file, prober.eventsFrom);
    if (!written.length) return `no event was written to ${file} while the check ran`;
    for (const event of written) {
      const problem = eventProblem(event, prober.accessToken);
      if (problem) return `${problem}: ${shown(event)}`;
    }
    const types = new Set(written.map((event) => event['type']));
    const missing = ['started', 'finished', 'refused'].filter((type) => !types.has(type));
    if (missing.length) return `no ${missing.join(' or ')} event among the ${written.length} written while sessions started, ended and were refused`;
    return null;
  },
};
