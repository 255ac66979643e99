import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ProxyCaller } from '../../client/caller.js';
import { EsignError, cancelledError, type EsignErrorDetail } from '../../client/errors.js';
import { poll } from '../../client/poll.js';
import type { Language, StringKey } from '../../i18n/index.js';
import { maskCode, maskPhone } from '../../protocol/mask.js';
import { removeMobileSession, removeSmartIdSession, statusOperation, type StatusAnswers } from '../../protocol/operations.js';
import { DEFAULT_TIME_LIMIT, PERSON_TIME_LIMIT, STATUS_POLL_SLOW_AFTER, STATUS_POLL_TIMEOUT } from '../../protocol/time-limits.js';
import { CHANNELS, type Channel, type Country, type SessionKind, type SessionStartResponse } from '../../protocol/types.js';
import type { PersonField, PersonValue } from '../data/person.js';
import { proxyClient } from './proxy-client.js';
import { RetryWait } from './retry-wait.js';
import { dropRecord, isKept, readRecord, recordKey, writeRecord } from './session-record.js';

/** Where a session is: the form (idle), starting it, waiting for the person, or one of its ends. */
export type SessionState = 'idle' | 'starting' | 'waiting' | 'success' | 'error' | 'cancelled';

/** What an element draws (or does) in each state, one entry a state: what `render` picks from. */
export type ByState<T> = { readonly [S in SessionState]: T };

/** How long "the connection is back" is said on screen, ms: it was said as it came, then the line goes. */
export const BACK_SHOWN_MS = 5_000;

/** Where the page says it goes away (hidden, frozen) and comes back (visible, resumed, restored from the back-forward cache). */
const PAGE_STATE_EVENTS = (): [EventTarget, string][] => [
  [document, 'visibilitychange'],
  [document, 'freeze'],
  [document, 'resume'],
  [window, 'pageshow'],
  [window, 'online'],
];

/**
 * What the controller reads of its element: public members of every session element, so the
 * element passes itself (no adapter between them).
 */
export interface SessionElement extends ReactiveControllerHost, HTMLElement {
  readonly endpoint: string;
  readonly language: Language;
  readonly requestTimeout: number;
  readonly pollInterval: number;
  readonly timeLimit: number;
  readonly noResume: boolean;
  readonly channels: Channel[];
  /** Set to the channel of a session followed on after a reload. */
  channel: Channel;
  readonly renderRoot: HTMLElement | DocumentFragment;
  t(key: StringKey, params?: Record<string, string | number>): string;
  /** What sends the operations, when not the proxy client of `endpoint` (a test's fake). */
  readonly caller?: ProxyCaller | undefined;
}

/**
 * What one kind of session is, as its element defines it: how it starts and what its finished
 * answer means. The status it polls is the protocol's for its kind (`statusOperation`).
 */
export interface SessionSpec<K extends SessionKind, Detail> {
  readonly kind: K;
  /** Starts the session at the service. */
  start(client: ProxyCaller, channel: Channel, person: PersonValue, signal: AbortSignal): Promise<SessionStartResponse>;
  /** What a finished session means for the element: its result's detail. The session is a success only once this resolved. */
  finish(raw: StatusAnswers[K], session: { channel: Channel; token: string }): Detail | Promise<Detail>;
  /** Says the success (the element's result event), once the state is `success`. */
  announce(detail: Detail): void;
  /** What is signed, named while waiting (none for a login). */
  subject?(): string;
  /** What the element keeps beside the session to build its result after a reload, and takes back then. */
  keep?(): Record<string, string> | undefined;
  restore?(extra: Record<string, string>): void;
}

/** A kind of session and how its failures are worded for `esign-error`. */
export interface SessionConfig<K extends SessionKind, Detail> extends SessionSpec<K, Detail> {
  describe(error: unknown): EsignErrorDetail;
}

/** What a start needs from the element once its inputs are checked. */
export interface StartRequest {
  person: PersonValue;
  channel: Channel;
}

/** What can help after a failure or a cancel, for the element to offer. */
export interface EndChoices {
  /** The other channel, for a person the first one does not know or qualify. */
  other: Channel | null;
  /** Whether trying the same again can help (else: change the details). */
  retryable: boolean;
  /** Neither can help: the person cannot fix it (the site's setup), so nothing is offered. */
  deadEnd: boolean;
  /**
   * Only the person's next step elsewhere can help (logging in to the site first): a quiet Try again
   * after the words, which does no harm before it, the focus left on the words.
   */
  elsewhere: boolean;
  /** After a rate limit, the time left: said in place of an action that cannot work yet. */
  wait: string | undefined;
}

/**
 * One session of an element from its start to its end, shaped like Lit's `Task`: the element
 * gives it a narrow config and renders from its state. It owns the state, one start at a time,
 * polling, cancel (the session removed at the service), keeping the waiting session in the tab
 * and following it on after a reload, the page's comings and goings, and what can help at an end.
 * Its events: `esign-started`, `esign-cancelled`, `esign-error`, and the element's result event by
 * its `announce`, once its `finish` resolved. Loaded after the element's form is on screen.
 */
export class SessionController<K extends SessionKind, Detail> implements ReactiveController {
  #state: SessionState = 'idle';
  #channel: Channel = 'smartid';
  #country: Country | undefined;
  #token = '';
  #controlCode = '';
  #since = 0;
  /** How long this session is followed, ms, fixed as it starts (see `#followFor`). */
  #limit = 0;
  #error: EsignError | undefined;
  #connection: '' | 'lost' | 'back' = '';
  #cameBack = false;
  #result: StatusAnswers[K] | undefined;
  #expired = false;
  #who = '';
  #subject = '';

  /** Where the session is: the form (idle), starting, waiting for the person, or one of its ends. */
  get state(): SessionState {
    return this.#state;
  }
  /** The session's channel (the one chosen when it started, or kept from before a reload). */
  /** The person's country, for a session started here or followed on after a reload. */
  get country(): Country | undefined {
    return this.#country;
  }
  get channel(): Channel {
    return this.#channel;
  }
  /** The service's token of the session, once it started. */
  get token(): string {
    return this.#token;
  }
  get controlCode(): string {
    return this.#controlCode;
  }
  /** When waiting began, ms since the epoch. */
  get since(): number {
    return this.#since;
  }
  get error(): EsignError | undefined {
    return this.#error;
  }
  /** A field the service refused: the form is back (idle), the message on that field. */
  get fieldError(): PersonField | null {
    return this.#state === 'idle' && this.#error ? formField(this.#error) : null;
  }
  /** While waiting: requests failing on the way (`lost`), one through again after that (`back`, for a few seconds), or nothing to say. */
  get connection(): '' | 'lost' | 'back' {
    return this.#connection;
  }
  /** The person left the page while waiting and came back: the waiting state says what to do. */
  get cameBack(): boolean {
    return this.#cameBack;
  }
  /** The answer of the session that ended well. */
  get result(): StatusAnswers[K] | undefined {
    return this.#result;
  }
  /** A kept session that could no longer be alive when the page came back. */
  get expired(): boolean {
    return this.#expired;
  }
  /** Who the session is for, masked, as the waiting state names them. */
  get who(): string {
    return this.#who;
  }
  /** What is signed, as the waiting state names it. */
  get subject(): string {
    return this.#subject;
  }

  #running: Promise<Detail> | undefined;
  #abort: AbortController | undefined;
  #client: ProxyCaller | undefined;
  /** The wait between polls, ended early when the person comes back to the page. */
  #wakeUp: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Where the waiting session is kept, while one is. */
  #keptAt: string | null = null;
  #hidden = false;
  /** After `rate-limited`: the time left, in place of an action that cannot work yet. */
  #wait: RetryWait | undefined;
  /** Ends "the connection is back" once it has been on screen for a while. */
  #backTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: SessionElement,
    private readonly config: SessionConfig<K, Detail>,
  ) {
    host.addController(this);
  }

  get busy(): boolean {
    return this.#state === 'starting' || this.#state === 'waiting';
  }

  /** When the person's time to confirm ends: the provider's limit, or the host's shorter one (0 before waiting). */
  get deadline(): number {
    return this.#since ? this.#since + Math.min(PERSON_TIME_LIMIT[this.#channel], this.#limit) : 0;
  }

  /** What the map holds for the state the session is in (an element's drawing, words or focus by state). */
  render<T>(map: ByState<T>): T {
    return map[this.#state];
  }

  #set(state: SessionState): void {
    this.#state = state;
    this.host.requestUpdate();
  }

  /** The connection as the waiting state says it: "back" goes by itself after a few seconds. */
  #setConnection(connection: '' | 'lost' | 'back'): void {
    clearTimeout(this.#backTimer);
    this.#connection = connection;
    if (connection === 'back') this.#backTimer = setTimeout(() => this.#setConnection(''), BACK_SHOWN_MS);
    this.host.requestUpdate();
  }

  /**
   * Starts a session and follows it to its end: one session, one outcome, one event. While one
   * runs (started or followed on), returns that one. `prepare` checks the element's inputs: an
   * input problem it throws is the element's to show (nothing happened); the site's own setup
   * problem (an error of the `caller` group) ends the session as a failure.
   */
  start(prepare: () => Promise<StartRequest>): Promise<Detail> {
    if (this.#running) return this.#running;
    const running = this.#start(prepare).finally(() => {
      if (this.#running === running) this.#running = undefined;
    });
    this.#running = running;
    return running;
  }

  async #start(prepare: () => Promise<StartRequest>): Promise<Detail> {
    let request: StartRequest;
    try {
      request = await prepare();
    } catch (error) {
      if (error instanceof EsignError && error.group === 'caller') this.fail(error);
      throw error;
    }
    const { person, channel } = request;
    this.#country = person.country;
    this.#subject = this.config.subject?.() ?? '';
    this.#who = channel === 'mobile' && person.phone ? maskPhone(person.phone) : maskCode(person.code);
    return this.#follow(channel, this.#followFor(channel), async (client, signal) => {
      const started = await this.config.start(client, channel, person, signal);
      if (signal.aborted) throw cancelledError();
      this.#since = Date.now();
      return started;
    });
  }

  /**
   * How long a session is followed, ms: the host's `time-limit`, else the person's time to confirm
   * and half a minute more (`DEFAULT_TIME_LIMIT`), since the answer to a confirmation in the
   * person's last seconds reaches the service after them. The person is shown the earlier of the two.
   */
  #followFor(channel: Channel): number {
    return this.host.timeLimit > 0 ? this.host.timeLimit : DEFAULT_TIME_LIMIT[channel];
  }

  /**
   * Follows on the session the element was waiting for when its page went away: the control code
   * and waiting again, then the same events, never a second start. A kept session past its end
   * is dropped and said.
   */
  async resumeKept(): Promise<void> {
    const host = this.host;
    if (host.noResume || typeof location === 'undefined' || this.#state !== 'idle' || this.#running) return;
    const key = recordKey(host);
    if (!isKept(key)) return;
    const record = readRecord(key);
    if (!record || record.kind !== this.config.kind) return;
    host.channel = record.channel;
    if (record.extra) this.config.restore?.(record.extra);
    if (!(record.until > Date.now())) {
      dropRecord(key);
      this.#expired = true;
      this.#channel = record.channel;
      this.fail(new EsignError('expired', host.t('status.resume-expired'), { retryable: true }));
      return;
    }
    this.#who = record.who;
    this.#subject = record.subject;
    this.#country = record.country;
    this.#keptAt = key;
    const running = this.#follow(
      record.channel,
      record.until - record.since,
      async () => {
        this.#since = record.since;
        return { token: record.token, control_code: record.controlCode };
      },
      true,
    );
    this.#running = running;
    await running.catch(() => undefined);
    if (this.#running === running) this.#running = undefined;
  }

  /** Stops polling and removes the session at the service; resolves once the service answered. */
  async cancel(): Promise<void> {
    const abort = this.#abort;
    if (!abort) return;
    const token = this.#token;
    const client = this.#client;
    abort.abort();
    await this.#running?.catch(() => undefined);
    if (!token || !client) return;
    // the session ends at the provider anyway; a failed removal must not hide the cancel
    await client.call(this.#channel === 'mobile' ? removeMobileSession : removeSmartIdSession, {}, { sessionId: token }).catch(() => undefined);
  }

  /** Ends in the error state without a session (the site's setup, or a kept session past its end), with the event. */
  fail(error: EsignError): void {
    if (this.busy) return;
    this.#error = error;
    this.#set('error');
    this.#failed(error);
  }

  /** Back to the form after an end: no time left to show, nothing expired to say. */
  reset(): void {
    if (this.busy) return;
    this.#wait?.stop();
    this.#wait = undefined;
    this.#expired = false;
    this.#error = undefined;
    this.#set('idle');
  }

  /** What can help after a failure or a cancel: never an action that cannot work (while a rate limit lasts, the time left instead). */
  endChoices(): EndChoices {
    const error = this.#error;
    return {
      other: this.#otherChannel(),
      retryable: this.#state === 'cancelled' || !error || error.retryable || error.code === 'signer-unknown',
      deadEnd: this.#state === 'error' && isDeadEnd(error),
      elsewhere: this.#state === 'error' && error?.code === 'signer-unknown',
      // the words are undefined once the time is over: Try again comes back
      wait: error?.code === 'rate-limited' ? this.#wait?.words() : undefined,
    };
  }

  /** The channel that may help after this failure: the other one, for a person it does not know or qualify. */
  #otherChannel(): Channel | null {
    const code = this.#error?.code;
    if (this.#state !== 'error' || (code !== 'not-a-user' && code !== 'not-qualified')) return null;
    const other: Channel = this.#channel === 'mobile' ? 'smartid' : 'mobile';
    const offered = this.host.channels.length ? this.host.channels : CHANNELS;
    return offered.includes(other) ? other : null;
  }

  /**
   * A session from its start (or its kept start) to its end: polled until it answers, given up
   * at its time limit, stopped by cancel or when the element leaves the page.
   */
  async #follow(
    channel: Channel,
    limit: number,
    begin: (client: ProxyCaller, signal: AbortSignal) => Promise<Pick<SessionStartResponse, 'token' | 'control_code'>>,
    resumed = false,
  ): Promise<Detail> {
    const host = this.host;
    const abort = new AbortController();
    this.#abort = abort;
    this.#channel = channel;
    this.#limit = limit;
    this.#error = undefined;
    this.#token = '';
    this.#controlCode = '';
    this.#setConnection('');
    this.#cameBack = false;
    this.#expired = false;
    this.#result = undefined;
    this.#wait?.stop();
    this.#wait = undefined;
    this.#set('starting');
    try {
      const client = (this.#client = host.caller ?? proxyClient(this.#client, host.endpoint, host.language, host.requestTimeout));
      const started = await begin(client, abort.signal);
      this.#token = started.token;
      this.#controlCode = started.control_code;
      this.#set('waiting');
      if (!resumed) this.#keep(channel);
      this.#emit('esign-started', { token: this.#token, channel, controlCode: this.#controlCode, kind: this.config.kind, ...(resumed ? { resumed } : {}) });
      // a status poll carries nothing and is small: it waits less than a start
      const timeoutMs = Math.min(client.timeoutMs, STATUS_POLL_TIMEOUT);
      const token = started.token;
      const raw = await poll<StatusAnswers[K]>(
        (signal) => client.call(statusOperation(this.config.kind, channel), {}, { token }, signal ? { signal, timeoutMs } : { timeoutMs }),
        {
          interval: host.pollInterval,
          timeLimit: this.#since + limit - Date.now(),
          signal: abort.signal,
          wake: this.#nextWake,
          // silent for half its time limit: said lost before the poll is given up
          slowAfter: Math.min(STATUS_POLL_SLOW_AFTER, timeoutMs / 2),
          onConnection: (lost) => this.#setConnection(lost ? 'lost' : 'back'),
        },
      );
      // a success only once the element made its result of the answer (a finish that fails is a failure)
      const detail = await this.config.finish(raw, { channel, token });
      this.#result = raw;
      this.#set('success');
      this.config.announce(detail);
      return detail;
    } catch (thrown) {
      const error = thrown instanceof EsignError ? thrown : new EsignError('unknown', String(thrown), { cause: thrown });
      if (error.code === 'cancelled' || abort.signal.aborted) {
        this.#set('cancelled');
        if (host.isConnected) this.#emit('esign-cancelled', { token: this.#token, channel });
        throw cancelledError(thrown);
      }
      this.#error = error;
      this.#set('error');
      this.#failed(error);
      throw error;
    } finally {
      // ended one way or the other: nothing left to follow after a reload
      if (this.#keptAt) dropRecord(this.#keptAt);
      this.#keptAt = null;
      this.#abort = undefined;
      this.#wakeUp = undefined;
      this.#cameBack = false;
      clearTimeout(this.#backTimer);
    }
  }

  /** A failure said: the event, the developer's words for the site's setup, the time left after a rate limit, the form back for a field to fix. */
  #failed(error: EsignError): void {
    this.#emit('esign-error', this.config.describe(error));
    // the site's setup: the person is told to contact the site, the developer what is wrong
    if (error.group === 'caller') console.warn(`esign-elements: ${error.code}: ${error.message}`);
    if (error.code === 'rate-limited') this.#wait = new RetryWait(this.host, error.retryAfter ?? 60);
    // a field the person can fix: back to the form, the message on the field (the error kept: `fieldError`)
    if (formField(error)) this.#set('idle');
  }

  /** Keeps the waiting session in the tab's storage, so that a reloaded page follows it on. */
  #keep(channel: Channel): void {
    const host = this.host;
    if (host.noResume || typeof location === 'undefined') return;
    const extra = this.config.keep?.();
    const key = recordKey(host);
    this.#keptAt = key;
    writeRecord(key, {
      v: 1,
      kind: this.config.kind,
      channel,
      ...(this.#country ? { country: this.#country } : {}),
      token: this.#token,
      controlCode: this.#controlCode,
      since: this.#since,
      until: this.#since + this.#limit,
      who: this.#who,
      subject: this.#subject,
      ...(extra ? { extra } : {}),
    });
  }

  #emit<K extends 'esign-started' | 'esign-cancelled' | 'esign-error'>(name: K, detail: HTMLElementEventMap[K]['detail']): void {
    this.host.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  /** Polls at once instead of waiting out the interval or the back-off (the person came back). */
  #wake(): void {
    this.#wakeUp?.resolve();
    this.#wakeUp = undefined;
  }

  /** One promise for every wait until the next wake, so a long session keeps no pile of waiters. */
  #nextWake = (): Promise<void> => (this.#wakeUp ??= withResolver()).promise;

  hostConnected(): void {
    // adding a listener twice adds it once
    for (const [target, type] of PAGE_STATE_EVENTS()) target.addEventListener(type, this.#onPageState);
  }

  hostDisconnected(): void {
    for (const [target, type] of PAGE_STATE_EVENTS()) target.removeEventListener(type, this.#onPageState);
    // no request may leave after the element left the page
    this.#abort?.abort();
  }

  /**
   * The person went to the Smart-ID app or their phone's prompt and came back: poll at once
   * rather than wait out the interval or the back-off, and say where to finish if it is not done.
   */
  #onPageState = (event: Event): void => {
    // online again: the poll goes at once, and a request the network switch left hanging is dropped
    if (event.type === 'online') {
      if (this.#state === 'waiting') this.#wake();
      return;
    }
    // a frozen page runs again on `resume` (its visibility may still say hidden): the person is back
    if (event.type !== 'resume' && (event.type === 'freeze' || document.visibilityState === 'hidden')) {
      this.#hidden = true;
    } else if (this.#hidden || event.type === 'resume' || (event instanceof PageTransitionEvent && event.persisted)) {
      this.#hidden = false;
      if (this.#state !== 'waiting') return;
      this.#cameBack = true;
      this.host.requestUpdate();
      this.#wake();
    }
  };
}

/**
 * An error the person cannot fix with their details or by trying again: the site's setup (its
 * access token, its proxy, its settings). No action is offered that brings the same error back:
 * the words say what to do, and the host answers `esign-error`. (Its own login, `signer-unknown`,
 * the person can fix elsewhere: a quiet Try again after it.)
 */
function isDeadEnd(error: EsignError | undefined): boolean {
  return !!error && !error.retryable && error.group === 'caller' && error.code !== 'request-too-large';
}

/** The person's field a refusal names (the service's 40004 phone, 40005 code), if any. */
function formField(error: EsignError): PersonField | null {
  if (error.code !== 'invalid-input') return null;
  if (error.field === 'phone' || error.serviceCode === 40004) return 'phone';
  if (error.field === 'code' || error.serviceCode === 40005) return 'code';
  if (error.field === 'country') return 'country';
  return null;
}

function withResolver(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
