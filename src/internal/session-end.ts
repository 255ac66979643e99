import type { Channel } from '../client/caller.js';
import { EsignError } from '../client/errors.js';
import type { PersonField } from './person.js';
import type { SessionHost } from './session-host.js';
import { RetryWait } from './retry-wait.js';

type AnyHost = SessionHost<{ status: string }, unknown>;

/**
 * A session that ended without a result, said and acted on: the event, the message on the field
 * the person can fix, the focus on what can help next. After a rate limit, returns the time left
 * (shown in place of Try again).
 */
export function sessionFailed(host: AnyHost, error: unknown, channel: Channel): RetryWait | undefined {
  if (!(error instanceof EsignError)) return undefined;
  if (error.code === 'cancelled') {
    if (host.element.isConnected) host.emit('esign-cancelled', { token: host.flow.token, channel });
    void host.focusLater('[part="retry"]');
    return undefined;
  }
  host.emit('esign-error', host.errorDetail(error));
  // the site's setup: the person is told to contact the site, the developer what is wrong
  if (error.group === 'caller') console.warn(`esign-elements: ${error.code}: ${error.message}`);
  // the time left in place of Try again, and the focus on it once shown (retry-wait.ts)
  const wait = error.code === 'rate-limited' ? new RetryWait(host.controllers, error.retryAfter ?? 60) : undefined;
  const field = formField(error);
  if (field) {
    // a field the person can fix: back to the form, the message on the field
    host.flow.reset();
    void host.controllers.updateComplete.then(() => host.personForm?.setFieldError(field, fieldMessage(host, field)));
  } else {
    // an end the person cannot change (the site's setup, the site's own login): the focus on what is said
    void host.focusLater(otherChannel(host) ? '[part="other-channel"]' : isDeadEnd(error) ? 'esign-status' : '[part="retry"]');
  }
  return wait;
}

/**
 * An error the person cannot fix with their details or by trying again: the site's setup (its
 * access token, its proxy, its settings) or its own login (`signer-unknown`). No action is offered
 * that brings the same error back: the words say what to do, and the host answers `esign-error`.
 */
export function isDeadEnd(error: unknown): boolean {
  return error instanceof EsignError && !error.retryable && ((error.group === 'caller' && error.code !== 'request-too-large') || error.code === 'signer-unknown');
}

function formField(error: EsignError): PersonField | null {
  if (error.code !== 'invalid-input') return null;
  if (error.field === 'phone' || error.serviceCode === 40004) return 'phone';
  if (error.field === 'code' || error.serviceCode === 40005) return 'code';
  if (error.field === 'country') return 'country';
  return null;
}

function fieldMessage(host: AnyHost, field: PersonField): string {
  return host.controllers.t(field === 'phone' ? 'form.phone.service' : field === 'code' ? 'form.code.service' : 'form.country.service');
}

/** The channel that may help after this failure: the other one, for a person it does not know or qualify. */
function otherChannel(host: AnyHost): Channel | null {
  const { state, error } = host.flow;
  if (state !== 'error' || !(error instanceof EsignError) || (error.code !== 'not-a-user' && error.code !== 'not-qualified')) return null;
  const other: Channel = host.activeChannel === 'mobile' ? 'smartid' : 'mobile';
  return host.offeredChannels.includes(other) ? other : null;
}

/** What can help after a failure or a cancel, for the element to offer. */
export interface EndChoices {
  /** The other channel, for a person the first one does not know or qualify. */
  other: Channel | null;
  /** Whether trying the same again can help (else: change the details). */
  retryable: boolean;
  /** Neither can help: the person cannot fix it (the site's setup or login), so nothing is offered. */
  deadEnd: boolean;
  /** After a rate limit, the time left: said in place of an action that cannot work yet. */
  wait: string | undefined;
}

/**
 * What can help after a failure: the other channel, trying again (when it can help), or changing
 * the details. Never an action that cannot work: while a rate limit lasts, the time left instead.
 */
export function endChoices(host: AnyHost, wait: RetryWait | undefined): EndChoices {
  const error = host.flow.error;
  return {
    other: otherChannel(host),
    retryable: host.flow.state === 'cancelled' || !(error instanceof EsignError) || error.retryable,
    deadEnd: host.flow.state === 'error' && isDeadEnd(error),
    // the words are undefined once the time is over: Try again comes back
    wait: error?.code === 'rate-limited' ? wait?.words() : undefined,
  };
}
