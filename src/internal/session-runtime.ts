import type { ReactiveController } from 'lit';
import type { Channel } from '../client/caller.js';
import { DEFAULT_TIME_LIMIT } from '../client/caller.js';
import { EsignError } from '../client/errors.js';
import { maskCode, maskPhone } from '../protocol/mask.js';
import type { PersonValue } from './person.js';
import type { FlowStart } from './session-flow.js';
import type { SessionHost } from './session-host.js';
import { endChoices, sessionFailed, type EndChoices } from './session-end.js';
import { dropRecord, isKept, readRecord, recordKey, writeRecord, type SessionRecord } from './session-record.js';
import type { RetryWait } from './retry-wait.js';

/** Where the page says it goes away (hidden, frozen) and comes back (visible, resumed, restored from the back-forward cache). */
const PAGE_STATE_EVENTS = (): [EventTarget, string][] => [
  [document, 'visibilitychange'],
  [document, 'freeze'],
  [document, 'resume'],
  [window, 'pageshow'],
  [window, 'online'],
];

/**
 * What a session element runs once its form is on screen, loaded then: a session started and
 * followed to its end (one session, one outcome, one event), kept in the tab for a reload and
 * followed on after one, the page's comings and goings while waiting, and what the status and the
 * end states say.
 */
export class SessionRuntime<Raw extends { status: string }, Detail> implements ReactiveController {
  /** Where the waiting session is kept, while one is. */
  #keptAt: string | null = null;
  /** The session kept from before a reload, while it is followed. */
  #record: SessionRecord | undefined;
  /** The kept session could no longer be alive when the page came back: said as such. */
  #expired = false;
  /** Who the running session is for, shown masked while waiting. */
  #runningFor: PersonValue | undefined;
  /** After `rate-limited`: the time left, in place of an action that cannot work yet. */
  #wait: RetryWait | undefined;
  #hidden = false;
  /** The answer of the last session that ended well. */
  #result: Raw | undefined;
  /** The person left the page while waiting and came back: the waiting state says what to do. */
  cameBack = false;

  constructor(private readonly host: SessionHost<Raw, Detail>) {
    host.controllers.addController(this);
  }

  hostConnected(): void {
    // adding a listener twice adds it once
    for (const [target, type] of PAGE_STATE_EVENTS()) target.addEventListener(type, this.#onPageState);
  }

  hostDisconnected(): void {
    for (const [target, type] of PAGE_STATE_EVENTS()) target.removeEventListener(type, this.#onPageState);
  }

  /**
   * The person went to the Smart-ID app or their phone's prompt and came back: poll at once
   * rather than wait out the interval or the back-off, and say where to finish if it is not done.
   */
  #onPageState = (event: Event): void => {
    const flow = this.host.flow;
    // online again: the poll goes at once, and a request the network switch left hanging is dropped
    if (event.type === 'online') {
      if (flow.state === 'waiting') flow.wake();
      return;
    }
    // a frozen page runs again on `resume` (its visibility may still say hidden): the person is back
    if (event.type !== 'resume' && (event.type === 'freeze' || document.visibilityState === 'hidden')) {
      this.#hidden = true;
    } else if (this.#hidden || event.type === 'resume' || (event as PageTransitionEvent).persisted) {
      this.#hidden = false;
      if (flow.state !== 'waiting') return;
      this.cameBack = true;
      this.host.controllers.requestUpdate();
      flow.wake();
    }
  };

  /** Starts a session for the person on the channel and follows it to its end. */
  run(person: PersonValue, channel: Channel): Promise<Detail> {
    const host = this.host;
    this.#runningFor = person;
    this.#record = undefined;
    this.cameBack = false;
    host.keepPerson(person);
    const running = host.flow.run<Raw>({
      client: () => host.caller(),
      channel,
      status: host.statusOperation(channel),
      interval: host.pollInterval,
      timeLimit: host.timeLimit,
      start: (signal, client) => host.startSession(client, channel, person, signal),
      onStarted: (started) => {
        this.#keep(started, channel);
        host.emit('esign-started', { token: started.token, channel, controlCode: started.control_code, kind: host.kind });
        void host.focusWaiting();
      },
    });
    return this.#follow(running, channel);
  }

  /**
   * Follows on the session the element was waiting for when its page went away: the control code
   * and waiting again, then the same events, never a second start. A kept session past its end
   * is dropped and said.
   */
  async resumeKept(): Promise<void> {
    const host = this.host;
    if (host.noResume || typeof location === 'undefined' || host.flow.state !== 'idle') return;
    const key = recordKey(host.element);
    if (!isKept(key)) return;
    const record = readRecord(key);
    if (!record || record.kind !== host.kind) return;
    this.#keptAt = key;
    this.#record = record;
    host.setChannel(record.channel);
    if (record.extra) host.restoreExtra(record.extra);
    const left = record.until - Date.now();
    if (!(left > 0)) {
      dropRecord(key);
      this.#keptAt = null;
      this.#expired = true;
      const error = new EsignError('expired', host.controllers.t('status.resume-expired'), { retryable: true });
      host.flow.fail(error);
      host.emit('esign-error', host.errorDetail(error));
      void host.focusLater('[part="retry"]');
      return;
    }
    const channel = record.channel;
    const running = host.flow.resume<Raw>({
      client: () => host.caller(),
      channel,
      status: host.statusOperation(channel),
      interval: host.pollInterval,
      timeLimit: left,
      started: { token: record.token, control_code: record.controlCode },
      since: record.since,
    });
    host.emit('esign-started', { token: record.token, channel, controlCode: record.controlCode, kind: host.kind, resumed: true });
    void host.focusWaiting();
    await this.#follow(running, channel).catch(() => undefined);
  }

  /** Back to the form: no time left to show, nothing expired to say. */
  reset(): void {
    this.#wait?.stop();
    this.#wait = undefined;
    this.#expired = false;
  }

  /** Keeps the waiting session in the tab's storage, so that a reloaded page follows it on. */
  #keep(started: FlowStart, channel: Channel): void {
    const host = this.host;
    if (host.noResume || typeof location === 'undefined') return;
    const { who, subject } = this.#waitingParts();
    const extra = host.recordExtra();
    const since = host.flow.since || Date.now();
    const key = recordKey(host.element);
    this.#keptAt = key;
    writeRecord(key, {
      v: 1,
      kind: host.kind,
      channel,
      token: started.token,
      controlCode: started.control_code,
      since,
      until: since + (host.timeLimit || DEFAULT_TIME_LIMIT[channel]),
      who,
      subject,
      ...(extra ? { extra } : {}),
    });
  }

  /** A running session to its end: the result built and announced, or the failure said. */
  async #follow(running: Promise<Raw>, channel: Channel): Promise<Detail> {
    const host = this.host;
    try {
      const raw = await running;
      this.#result = raw;
      host.setResult(raw);
      const detail = await host.completed(raw, channel);
      // with the host's own success content the element's is not shown: the status takes the focus
      void host.focusLater(host.element.querySelector('[slot="success"]') ? 'esign-status' : '.done');
      return detail;
    } catch (error) {
      this.#wait = sessionFailed(host, error, channel) ?? this.#wait;
      throw error;
    } finally {
      // ended one way or the other: nothing left to follow after a reload
      if (this.#keptAt) dropRecord(this.#keptAt);
      this.#keptAt = null;
      this.cameBack = false;
    }
  }

  /** The masked person and what is signed, as the waiting state names them (from the kept record after a reload). */
  #waitingParts(): { who: string; subject: string } {
    const host = this.host;
    const person = this.#runningFor;
    if (!person) return { who: this.#record?.who ?? '', subject: this.#record?.subject ?? '' };
    const who = host.activeChannel === 'mobile' && person.phone ? maskPhone(person.phone) : maskCode(person.code);
    return { who, subject: host.waitingSubject() };
  }

  /** What the status says while a session runs and once it ended: its heading and the line below it. */
  statusWords(): { heading: string; detail: string; spoken?: string } {
    const host = this.host;
    const t = host.controllers.t.bind(host.controllers);
    const state = host.flow.state;
    if (state === 'waiting') {
      const { who, subject } = this.#waitingParts();
      const channel = host.activeChannel;
      // back before confirming: a short heading and where to finish, the control code still in view
      if (this.cameBack) return { heading: t('status.back'), detail: t(channel === 'smartid' ? 'status.back.smartid' : host.kind === 'login' ? 'status.back.mobile.login' : 'status.back.mobile.sign') };
      if (!who) return { heading: t('status.waiting'), detail: '' };
      // the channel, the masked person and what is signed: `Smart-ID · 3030••••914 · contract.pdf`,
      // said as `Smart-ID, personal code ending in 9 1 4, contract.pdf`
      const ending = t('form.masked', { digits: who.slice(-3).split('').join(' ') });
      const spokenWho = channel === 'mobile' ? `${t('form.phone')} ${who.slice(0, 4)}, ${ending}` : `${t('form.code')}, ${ending}`;
      return {
        heading: t('status.waiting'),
        detail: [t(`channel.${channel}`), who, subject].filter(Boolean).join(' · '),
        ...(/\d{3}$/.test(who) ? { spoken: [t(`channel.${channel}`), spokenWho, subject].filter(Boolean).join(', ') } : {}),
      };
    }
    if (state === 'success') return { heading: this.#result ? host.successMessage() : '', detail: '' };
    if (state === 'cancelled') return { heading: host.cancelledMessage(), detail: '' };
    if (state === 'error') {
      const error = host.flow.error;
      // after a rate limit the time left is said once, in its own line (the end choices), never here
      const limited = error?.code === 'rate-limited';
      const message = this.#expired ? t('status.resume-expired') : limited ? t('status.too-many') : error ? host.errorDetail(error).message : '';
      return { heading: t(host.kind === 'login' ? 'identify.failed' : 'sign.failed'), detail: message };
    }
    return { heading: '', detail: '' };
  }

  /** What can help after a failure or a cancel (session-end.ts). */
  endChoices(): EndChoices {
    return endChoices(this.host, this.#wait);
  }
}
