import type { Channel } from '../client/caller.js';
import { EsignError, type EsignErrorDetail } from '../client/errors.js';
import type { PersonField, PersonForm } from './person.js';
import type { CancelledDetail } from './session-events.js';
import type { SessionFlow } from './session-flow.js';
import { RetryWait, type WaitHost } from './retry-wait.js';

/** The parts of a session element its end states use (its own members, seen from here). */
export interface EndTarget extends WaitHost {
  readonly flow: SessionFlow;
  readonly activeChannel: Channel;
  readonly offeredChannels: Channel[];
  readonly personForm: PersonForm | null;
  readonly isConnected: boolean;
  /** After `rate-limited`: the time left, in place of an action that cannot work yet. */
  wait: RetryWait | undefined;
  emit<T>(name: string, detail: T): boolean;
  errorDetail(error: unknown): EsignErrorDetail;
  focusLater(selector: string): Promise<void>;
  retry(): void;
  switchTo(channel: Channel): void;
}

/**
 * A session that ended without a result, said and acted on: the event, the time left after a
 * rate limit, the message on the field the person can fix, the focus on what can help next.
 * Loaded with the session's code (session-later.ts), which every end state comes after.
 */
export function sessionFailed(element: EndTarget, error: unknown, channel: Channel): void {
  if (!(error instanceof EsignError)) return;
  if (error.code === 'cancelled') {
    if (element.isConnected) element.emit<CancelledDetail>('esign-cancelled', { token: element.flow.token, channel });
    void element.focusLater('[part="retry"]');
    return;
  }
  element.emit('esign-error', element.errorDetail(error));
  // the time left in place of Try again, and the focus on it once shown (retry-wait.ts)
  if (error.code === 'rate-limited') element.wait = new RetryWait(element, error.retryAfter ?? 60);
  const field = formField(error);
  if (field) {
    // a field the person can fix: back to the form, the message on the field
    element.flow.reset();
    void element.updateComplete.then(() => element.personForm?.setFieldError(field, fieldMessage(element, field)));
  } else {
    void element.focusLater(otherChannel(element) ? '[part="other-channel"]' : '[part="retry"]');
  }
}

function formField(error: EsignError): PersonField | null {
  if (error.code !== 'invalid-input') return null;
  if (error.field === 'phone' || error.serviceCode === 40004) return 'phone';
  if (error.field === 'code' || error.serviceCode === 40005) return 'code';
  if (error.field === 'country') return 'country';
  return null;
}

function fieldMessage(element: EndTarget, field: PersonField): string {
  return element.t(field === 'phone' ? 'form.phone.service' : field === 'code' ? 'form.code.service' : 'form.country.service');
}

/** The channel that may help after this failure: the other one, for a person it does not know or qualify. */
function otherChannel(element: EndTarget): Channel | null {
  const { state, error } = element.flow;
  if (state !== 'error' || !(error instanceof EsignError) || (error.code !== 'not-a-user' && error.code !== 'not-qualified')) return null;
  const other: Channel = element.activeChannel === 'mobile' ? 'smartid' : 'mobile';
  return element.offeredChannels.includes(other) ? other : null;
}

/** What can help after a failure or a cancel, for the element to offer. */
export interface EndChoices {
  /** The other channel, for a person the first one does not know or qualify. */
  other: Channel | null;
  /** Whether trying the same again can help (else: change the details). */
  retryable: boolean;
  /** After a rate limit, the time left: said in place of an action that cannot work yet. */
  wait: string | undefined;
}

/**
 * What can help after a failure: the other channel, trying again (when it can help), or changing
 * the details. Never an action that cannot work: while a rate limit lasts, the time left instead.
 */
export function endChoices(element: EndTarget): EndChoices {
  const error = element.flow.error;
  return {
    other: otherChannel(element),
    retryable: element.flow.state === 'cancelled' || !(error instanceof EsignError) || error.retryable,
    // the words are undefined once the time is over: Try again comes back
    wait: error?.code === 'rate-limited' ? element.wait?.words() : undefined,
  };
}
