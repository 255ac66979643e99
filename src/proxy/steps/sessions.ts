import { REMOVALS, STARTS, STATUS_OF } from '../operation-kinds.js';
import type { Binding, Step, Has } from './exchange.js';
import type { Channel } from '../../protocol/types.js';
import type { ProxySetup } from './setup.js';
import type { SignedAs } from '../options.js';
import { startCountry } from '../person.js';
import { seal, tokenName } from '../sealed.js';
import { sealBinding, storedBinding } from './binding.js';

/**
 * Sessions: what the service's answer changes here. A start it accepted is bound to its visitor
 * (and starts the event's session); a start it refused is given back to the person's limit (no
 * push was sent, so nobody can lock a person out with starts the service turns away); a session
 * it removed is unbound; a poll it answered with an error ends the session.
 */
export const sessions: Step<'operation' | 'service' | 'visitor'> = (x, setup) => {
  const { operation, service, binding } = x;
  if (binding && STATUS_OF[operation.id]) {
    if (binding.person) x.event.base.person = binding.person;
    // a session ends with the service's final answer: ok (see hand-over), or its error code
    if (service.value['status'] !== 'error') return;
    x.event.outcome = { type: 'finished', outcome: String(service.value['error_code'] ?? 'error') };
    return keepFinished(setup, operation.params['token'] ?? '', binding);
  }
  if (STARTS[operation.id] || REMOVALS[operation.id]) return startedOrRemoved(x, setup);
};

/**
 * A finished session's binding, kept only as long as a late poll needs it: shortened while it is
 * still there, never written again (a removal meanwhile, say by a cancel, stays a removal).
 */
export async function keepFinished({ store, handOver, visitorSecret }: ProxySetup, token: string, binding: Binding): Promise<void> {
  await store.extendIfEqual?.(`bind:${tokenName(visitorSecret, token)}`, storedBinding(visitorSecret, binding), handOver.doneTtlMs);
}

/**
 * A session the service started whose binding could not be stored (the store failed, a Redis
 * failover): nobody could ever poll it, so it is removed at the service, and the person's phone
 * stops asking; the browser gets the store's retryable refusal and may start again.
 */
async function unbound(setup: ProxySetup, channel: Channel, token: string, requestId: string): Promise<void> {
  await setup.upstream('DELETE', `/api/${channel}/session/${encodeURIComponent(token)}`, setup.tokenOnlyBody, {}, true).catch(() => undefined);
  setup.log(
    'error',
    `[esign-proxy] a ${channel} session the service started could not be bound (the store failed): removed at the service [request ${requestId}]`,
    requestId,
  );
}

/** Whom a signing start is for: the person the site said is signed in (the gate checked the start against them), else the start's own country and code. */
function signerOfStart(x: Has<'operation'>): SignedAs | null {
  if (x.signedIn) return { country: x.signedIn.country, code: x.signedIn.code, from: 'site' };
  const country = startCountry(x.fields);
  const code = x.fields['code'];
  return country && typeof code === 'string' ? { country, code, from: 'start' } : null;
}

async function startedOrRemoved(x: Has<'operation' | 'service' | 'visitor'>, setup: ProxySetup): Promise<void> {
  const { store, sessionTtl } = setup;
  const { operation, service, binding } = x;
  const status = service.value['status'];
  const start = STARTS[operation.id];
  if (start && status === 'error') for (const counter of x.personCounters) await store.decrement(counter);
  if (start && status === 'ok' && typeof service.value['token'] === 'string') {
    const signedAs = start.kind === 'login' ? null : signerOfStart(x);
    const bound: Binding = {
      visitor: x.visitor.key,
      channel: start.channel,
      kind: start.kind,
      status: start.status,
      ...(x.person ? { person: x.person } : {}),
      ...(x.signer ? { signer: x.signer } : {}),
      ...(x.upload ? { upload: x.upload } : {}),
      ...(signedAs ? { signedAs: seal(setup.visitorSecret, JSON.stringify(signedAs)) } : {}),
    };
    const token = service.value['token'];
    try {
      await store.set(`bind:${tokenName(setup.visitorSecret, token)}`, sealBinding(setup.visitorSecret, bound), sessionTtl);
    } catch (error) {
      await unbound(setup, start.channel, token, x.requestId);
      throw error;
    }
    x.event.outcome = { type: 'started' };
  }
  // a session removed at the service is gone here too: its polls get 40402 from the binding step
  if (status === 'ok' && binding && REMOVALS[operation.id]) await store.delete(`bind:${tokenName(setup.visitorSecret, operation.params['sessionId'] ?? '')}`);
}
