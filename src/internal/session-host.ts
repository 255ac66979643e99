import type { Channel, ProxyCaller, SessionKind } from '../client/caller.js';
import type { EsignErrorDetail } from '../client/errors.js';
import type { NoBody, Operation } from '../protocol/operations.js';
import type { WaitingResponse } from '../protocol/types.js';
import type { PersonForm, PersonValue } from './person.js';
import type { EventDetail } from './base-element.js';
import type { FlowStart, SessionFlow } from './session-flow.js';
import type { WaitHost } from './retry-wait.js';

/** The events a session's runtime fires on its element. */
export type SessionEvent = 'esign-started' | 'esign-cancelled' | 'esign-error';

/**
 * What the session runtime uses of its element. The element builds it over its own (protected
 * and private) members, so the compiler checks both sides and the element exposes nothing for it.
 */
export interface SessionHost<Raw extends { status: string }, Detail> {
  /** The element on its page: its place names the tab's record, its light DOM may hold the host's success content. */
  readonly element: HTMLElement;
  /** The element as the host of the runtime's controllers (its updates, its words). */
  readonly controllers: WaitHost;
  readonly flow: SessionFlow;
  readonly kind: SessionKind;
  readonly noResume: boolean;
  readonly pollInterval: number;
  readonly timeLimit: number;
  readonly activeChannel: Channel;
  readonly offeredChannels: readonly Channel[];
  readonly personForm: PersonForm | null;
  /** Takes the channel of a session followed after a reload. */
  setChannel(channel: Channel): void;
  /** Keeps the details a session was started with, for the form when it comes back. */
  keepPerson(person: PersonValue): void;
  /** Keeps the session's answer, for the element's success content. */
  setResult(raw: Raw): void;
  caller(): Promise<ProxyCaller>;
  statusOperation(channel: Channel): Operation<NoBody, Raw | WaitingResponse>;
  startSession(client: ProxyCaller, channel: Channel, person: PersonValue, signal: AbortSignal): Promise<FlowStart>;
  /** Builds the result detail and fires the completion event. */
  completed(raw: Raw, channel: Channel): Detail | Promise<Detail>;
  recordExtra(): Record<string, string> | undefined;
  restoreExtra(extra: Record<string, string>): void;
  waitingSubject(): string;
  successMessage(): string;
  cancelledMessage(): string;
  emit<K extends SessionEvent>(name: K, detail: EventDetail<K>): boolean;
  errorDetail(error: unknown): EsignErrorDetail;
  focusLater(selector: string): Promise<void>;
  /** A session waits: the focus on its status, the control code in view (above it, at any zoom). */
  focusWaiting(): Promise<void>;
}
