import { ProxyRefusal, jsonAnswer } from '../errors.js';
import { REMOVALS, STATUS_OF } from '../operation-kinds.js';
import { MemoryStore } from '../store.js';
import type { Binding, Step, Has } from './exchange.js';
import type { ProxySetup } from './setup.js';
import { isRecord } from '../../protocol/checks.js';
import { NOT_YOUR_SESSION } from '../../protocol/proxy-rules.js';
import { seal, tokenName, unseal } from '../sealed.js';

/** Bindings as parsed, by their stored text: a session is polled every second or so, its binding never changes. */
const parsed = new Map<string, Binding>();
const PARSED_KEPT = 1024;
/** Each binding read, by the very text the store holds: what a later write compares against. */
const storedText = new WeakMap<Binding, string>();

/**
 * A binding as the store keeps it: sealed (AES-256-GCM under the visitor secret), so that whoever
 * reads the store learns no visitor id (which would let them poll as that browser), no person and
 * no signer.
 */
export function sealBinding(secret: string, binding: Binding): string {
  return seal(secret, JSON.stringify(binding));
}

/** The store's own text of a binding that was read from it (a compare-and-set needs it), else the binding sealed anew. */
export function storedBinding(secret: string, binding: Binding): string {
  return storedText.get(binding) ?? sealBinding(secret, binding);
}

function parseBinding(stored: string, secret: string): Binding | null {
  let bound = parsed.get(stored);
  if (!bound) {
    const text = unseal(secret, stored);
    if (text === null) return null;
    const value: unknown = JSON.parse(text);
    // the store is the proxy's own, but a record is read field by field all the same (an older
    // version's, or another program's under the same prefix): one that is not a binding binds nothing
    if (!isBinding(value)) return null;
    bound = value;
    // shared by every poll of the session (and its person by their events): nobody changes it
    if (bound.person) Object.freeze(bound.person);
    Object.freeze(bound);
    storedText.set(bound, stored);
    if (parsed.size >= PARSED_KEPT) parsed.clear();
    parsed.set(stored, bound);
  }
  return bound;
}

const CHANNELS: readonly unknown[] = ['mobile', 'smartid'];
const KINDS: readonly unknown[] = ['login', 'sign', 'hash'];
const optionalText = (value: unknown) => value === undefined || typeof value === 'string';
const optionalObject = (value: unknown) => value === undefined || (typeof value === 'object' && value !== null);

/** Whether a stored value is a binding: who, which channel, kind and status operation, each of its type. */
function isBinding(value: unknown): value is Binding {
  if (!isRecord(value)) return false;
  const b = value;
  return (
    typeof b['visitor'] === 'string' &&
    CHANNELS.includes(b['channel']) &&
    KINDS.includes(b['kind']) &&
    typeof b['status'] === 'string' &&
    optionalText(b['signer']) &&
    optionalText(b['rotatedFrom']) &&
    optionalText(b['signedAs']) &&
    optionalObject(b['person']) &&
    optionalObject(b['upload'])
  );
}

const SESSION_NOT_FOUND = NOT_YOUR_SESSION.message;

/**
 * Binding: a status poll or a removal is for a session this visitor started, of this kind and
 * channel. Any other token gets the service's own answer for a token it does not know, whether
 * the session exists or not.
 */
export const binding: Step<'operation' | 'visitor'> = (x, setup) => {
  const { operation } = x;
  const { store } = setup;
  if (!REMOVALS[operation.id] && !STATUS_OF[operation.id]) return;
  const key = `bind:${tokenName(setup.visitorSecret, operation.params['token'] ?? operation.params['sessionId'] ?? '')}`;
  // the process's own memory answers at once: no promise for every poll
  if (store instanceof MemoryStore) return bound(x, setup, store.getNow(key));
  return store.get(key).then((stored) => bound(x, setup, stored));
};

function bound(x: Has<'operation' | 'visitor'>, setup: ProxySetup, stored: string | null): void {
  const { operation } = x;
  const removalChannel = REMOVALS[operation.id];
  const bound = stored ? parseBinding(stored, setup.visitorSecret) : null;
  const owner = bound !== null && (bound.visitor === x.visitor.key || bound.rotatedFrom === x.visitor.key);
  const fits = owner && (removalChannel ? bound.channel === removalChannel : bound.status === operation.id);
  if (fits) {
    x.binding = bound;
    return;
  }
  if (bound !== null && !owner && setup.options.visitor) {
    // the session exists, for another visitor by the host's hook: most often a session that is not kept between requests
    setup.hint(
      'visitor-changed',
      '[esign-proxy] a poll came from another visitor than the start of its session, by your visitor hook, and was refused (not-your-session): ' +
        'when the hook returns a session id, that session is not kept between requests. With express-session set saveUninitialized: true ' +
        "(or write something into the session before the start), and keep its cookie on the proxy's path. (Said once; if it was not your own browser, it was someone else's token.)",
    );
  }
  const answer = removalChannel
    ? { status: 'error', message: SESSION_NOT_FOUND }
    : { status: 'error', message: SESSION_NOT_FOUND, error_code: NOT_YOUR_SESSION.statusErrorCode };
  throw new ProxyRefusal(jsonAnswer(NOT_YOUR_SESSION.status, answer), { reason: 'not-your-session' });
}
