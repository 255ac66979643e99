import type { Channel, ProxyCaller, SessionKind } from '../client/caller.js';
import { DEFAULT_TIME_LIMIT } from '../client/caller.js';
import type { NoBody, Operation } from '../protocol/operations.js';
import type { WaitingResponse } from '../protocol/types.js';
import { maskCode, maskPhone } from '../protocol/mask.js';
import type { PersonValue } from './person.js';
import type { StartedDetail } from './session-events.js';
import { sessionFailed, type EndTarget } from './session-end.js';
import type { FlowStart } from './session-flow.js';
import { dropRecord, recordKey, writeRecord } from './session-record.js';
import type { KeptSession } from './session-resume.js';

/**
 * The parts of a session element that running a session uses (its own members, seen from here):
 * what the element loads after its form is on screen runs the session, keeps it for a reload,
 * follows it to its end and words the status while it runs.
 */
export interface RunTarget extends EndTarget {
  readonly kind: SessionKind;
  readonly kept: KeptSession;
  readonly noResume: boolean;
  readonly pollInterval: number;
  readonly timeLimit: number;
  code: string;
  phone: string;
  /** Who the running session is for (shown masked while waiting). */
  runningFor: PersonValue | undefined;
  /** The person left the page while waiting and came back. */
  cameBack: boolean;
  result: unknown;
  caller(): Promise<ProxyCaller>;
  statusOperation(channel: Channel): Operation<NoBody, { status: string } | WaitingResponse>;
  startSession(client: ProxyCaller, channel: Channel, person: PersonValue, signal: AbortSignal): Promise<FlowStart>;
  completed(raw: { status: string }, channel: Channel): unknown;
  recordExtra(): Record<string, string> | undefined;
  waitingSubject(): string;
  successMessage(): string;
  cancelledMessage(): string;
  querySelector(selector: string): Element | null;
}

/** Starts a session for the person on the channel and follows it to its end: one session, one outcome, one event. */
export function runSession(element: RunTarget, person: PersonValue, channel: Channel): Promise<unknown> {
  element.runningFor = person;
  element.kept.record = undefined;
  element.cameBack = false;
  element.code = person.code;
  if (person.phone) element.phone = person.phone;
  const running = element.flow.run({
    client: () => element.caller(),
    channel,
    status: element.statusOperation(channel),
    interval: element.pollInterval,
    timeLimit: element.timeLimit,
    start: (signal, client) => element.startSession(client, channel, person, signal),
    onStarted: (started) => {
      keep(element, started, channel);
      element.emit<StartedDetail>('esign-started', { token: started.token, channel, controlCode: started.control_code, kind: element.kind });
      void element.focusLater('esign-status');
    },
  });
  return followSession(element, running, channel);
}

/** Keeps the waiting session in the tab's storage, so that a reloaded page follows it on. */
function keep(element: RunTarget, started: FlowStart, channel: Channel): void {
  if (element.noResume || typeof location === 'undefined') return;
  const { who, subject } = waitingParts(element);
  const extra = element.recordExtra();
  const since = element.flow.since || Date.now();
  const key = recordKey(element as unknown as HTMLElement);
  element.kept.at = key;
  writeRecord(key, {
    v: 1,
    kind: element.kind,
    channel,
    token: started.token,
    controlCode: started.control_code,
    since,
    until: since + (element.timeLimit || DEFAULT_TIME_LIMIT[channel]),
    who,
    subject,
    ...(extra ? { extra } : {}),
  });
}

/** A running session to its end: the result built and announced, or the failure said. */
export async function followSession(element: RunTarget, running: Promise<{ status: string }>, channel: Channel): Promise<unknown> {
  try {
    const raw = await running;
    element.result = raw;
    element.requestUpdate();
    const detail = await element.completed(raw, channel);
    // with the host's own success content the element's is not shown: the status takes the focus
    void element.focusLater(element.querySelector('[slot="success"]') ? 'esign-status' : '.done');
    return detail;
  } catch (error) {
    sessionFailed(element, error, channel);
    throw error;
  } finally {
    // ended one way or the other: nothing left to follow after a reload
    if (element.kept.at) dropRecord(element.kept.at);
    element.kept.at = null;
    element.cameBack = false;
  }
}

/** The masked person and what is signed, as the waiting state names them (from the kept record after a reload). */
function waitingParts(element: RunTarget): { who: string; subject: string } {
  const person = element.runningFor;
  if (!person) return { who: element.kept.record?.who ?? '', subject: element.kept.record?.subject ?? '' };
  const who = element.activeChannel === 'mobile' && person.phone ? maskPhone(person.phone) : maskCode(person.code);
  return { who, subject: element.waitingSubject() };
}

/** What the status says while a session runs and once it ended: its heading and the line below it. */
export function statusWords(element: RunTarget): { heading: string; detail: string } {
  const state = element.flow.state;
  if (state === 'waiting') {
    const { who, subject } = waitingParts(element);
    const channel = element.activeChannel;
    return {
      heading: element.t(element.cameBack ? `status.back.${channel}` : 'status.waiting'),
      // the channel, the masked person and what is signed: `Smart-ID · 3030••••914 · contract.pdf`
      detail: who ? [element.t(`channel.${channel}`), who, subject].filter(Boolean).join(' · ') : '',
    };
  }
  if (state === 'success') return { heading: element.result ? element.successMessage() : '', detail: '' };
  if (state === 'cancelled') return { heading: element.cancelledMessage(), detail: '' };
  if (state === 'error') {
    const message = element.kept.expired ? element.t('status.resume-expired') : element.flow.error ? element.errorDetail(element.flow.error).message : '';
    return { heading: element.t(element.kind === 'login' ? 'identify.failed' : 'sign.failed'), detail: message };
  }
  return { heading: '', detail: '' };
}
