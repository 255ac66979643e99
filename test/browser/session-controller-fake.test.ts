import { expect, fixture, html as testHtml } from '@open-wc/testing';
import { ProxyCaller } from '../../src/client/caller.js';
import { EsignError, type EsignErrorDetail } from '../../src/client/errors.js';
import { smartIdLogin, type StatusAnswers } from '../../src/protocol/operations.js';
import { BACK_SHOWN_MS, SessionController, type ByState, type SessionConfig, type StartRequest } from '../../src/internal/session/session-controller.js';
import { DEFAULT_TIME_LIMIT, PERSON_TIME_LIMIT } from '../../src/protocol/time-limits.js';
import { recordKey } from '../../src/internal/session/session-record.js';
import './session-host.js';
import type { RecordingSessionHost } from './session-host.js';
import { until } from './helpers.js';

// The session controller with a fake of the service behind the real client (a fetch of the test's
// own): every path of a session in milliseconds, each answer scripted, every request counted.

type Answer = StatusAnswers['login'];

/** What the fake service answers a status poll with, in turn: an answer, a failure on the way, or nothing until the request is given up. */
type PollStep = 'waiting' | 'ok' | 'drop' | 'hang';

class FakeService {
  polls: PollStep[] = [];
  readonly asked: string[] = [];
  start: () => Response | Promise<Response> = () => json({ status: 'ok', token: 'fake-token-1', control_code: '4321' });
  /** Runs as a poll arrives, before it is answered: what the page does while the poll is on its way. */
  onPoll: () => void = () => undefined;

  readonly fetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input);
    const kind = url.includes('/status/') ? 'poll' : init?.method === 'DELETE' || /session/.test(url) ? 'remove' : 'start';
    this.asked.push(kind);
    if (kind === 'start') return Promise.resolve(this.start());
    if (kind === 'remove') return Promise.resolve(json({ status: 'ok' }));
    const step = this.polls.length > 1 ? this.polls.shift()! : (this.polls[0] ?? 'waiting');
    this.onPoll();
    if (step === 'drop') return Promise.reject(new TypeError('Failed to fetch'));
    if (step === 'hang') return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    return Promise.resolve(
      json(
        step === 'ok' ? { status: 'ok', code: '40504040001', country: 'EE', name: 'OK', surname: 'TESTNUMBER', token: 'fake-token-1' } : { status: 'waiting' },
      ),
    );
  };

  count(kind: string): number {
    return this.asked.filter((asked) => asked === kind).length;
  }
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

interface Seen {
  finished: Answer[];
  /** The controller's state when the spec's finish ran, and when the success was announced. */
  stateAtFinish: string[];
  announced: [string, string][];
  restored: Record<string, string>[];
  events: { started: number; cancelled: number; error: EsignErrorDetail[] };
}

interface Made {
  host: RecordingSessionHost;
  controller: SessionController<'login', string>;
  service: FakeService;
  seen: Seen;
}

async function made(finish?: (raw: Answer) => Promise<string>, id = 'fake'): Promise<Made> {
  const host = await fixture<RecordingSessionHost>(testHtml`<recording-session-host id=${id}></recording-session-host>`);
  const service = new FakeService();
  host.caller = new ProxyCaller({ endpoint: '/esign', lang: 'en', fetch: service.fetch });
  // a fake answers at once: polls close together
  host.pollInterval = 20;
  const seen: Seen = { finished: [], stateAtFinish: [], announced: [], restored: [], events: { started: 0, cancelled: 0, error: [] } };
  host.addEventListener('esign-started', () => seen.events.started++);
  host.addEventListener('esign-cancelled', () => seen.events.cancelled++);
  host.addEventListener('esign-error', (e) => seen.events.error.push(e.detail));
  const config: SessionConfig<'login', string> = {
    kind: 'login',
    start: (client, _channel, person, signal) => client.call(smartIdLogin, { code: person.code, country: person.country }, {}, { signal }),
    finish: async (raw) => {
      seen.finished.push(raw);
      seen.stateAtFinish.push(controller.state);
      return finish ? finish(raw) : `${raw.name} ${raw.surname}`;
    },
    announce: (detail) => void seen.announced.push([detail, controller.state]),
    describe: (error) => (error instanceof EsignError ? error.toDetail() : { code: 'unknown', message: String(error), retryable: true }),
    keep: () => ({ extra: 'kept beside it' }),
    restore: (extra) => void seen.restored.push(extra),
  };
  const controller = new SessionController<'login', string>(host, config);
  host.controller = controller;
  return { host, controller, service, seen };
}

const request: StartRequest = { person: { channel: 'smartid', code: '40504040001', country: 'EE' }, channel: 'smartid' };
const start = (controller: SessionController<'login', string>) => controller.start(async () => request);

describe('SessionController with a fake service', () => {
  afterEach(() => sessionStorage.clear());

  it('starts, polls and ends well: a success only once finish resolved, announced then, once', async () => {
    const { host, controller, service, seen } = await made();
    service.polls = ['waiting', 'waiting', 'ok'];
    expect(await start(controller)).to.equal('OK TESTNUMBER');
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'success']);
    expect(seen.stateAtFinish).to.deep.equal(['waiting']);
    expect(seen.announced).to.deep.equal([['OK TESTNUMBER', 'success']]);
    expect([service.count('start'), service.count('poll'), service.count('remove')]).to.deep.equal([1, 3, 0]);
    expect([seen.events.started, seen.events.cancelled, seen.events.error.length]).to.deep.equal([1, 0, 0]);
    expect(controller.result?.name).to.equal('OK');
  });

  it('a finish that throws after an await is a failure: never drawn as a success, nothing announced, one error event', async () => {
    const { host, controller, service, seen } = await made(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      throw new EsignError('service-error', 'the answer holds no signed file');
    });
    service.polls = ['ok'];
    const failed = await start(controller).then(
      () => null,
      (error: unknown) => error,
    );
    expect((failed as EsignError).code).to.equal('service-error');
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'error']);
    expect(seen.announced).to.deep.equal([]);
    expect(seen.events.error.map((e) => e.code)).to.deep.equal(['service-error']);
    expect(controller.result).to.equal(undefined);
  });

  it('says the connection lost at the second failed poll in a row, back at the next through, and ends once', async () => {
    const { host, controller, service, seen } = await made();
    service.polls = ['waiting', 'drop', 'drop', 'drop', 'waiting', 'ok'];
    await start(controller);
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'waiting:lost', 'waiting:back', 'success']);
    expect(service.count('poll')).to.equal(6);
    expect(seen.announced.length).to.equal(1);
  });

  it('one failed poll says nothing', async () => {
    const { host, controller, service } = await made();
    service.polls = ['drop', 'waiting', 'ok'];
    await start(controller);
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'success']);
  });

  it('a start the proxy limits ends with the time to wait, said in place of Try again; no session, no poll', async () => {
    const { controller, service, seen } = await made();
    service.start = () =>
      json({ status: 'error', message: 'Too many sessions started', proxy_error: 'rate-limited', retry_after: 90 }, 429, { 'retry-after': '90' });
    const failed = await start(controller).then(
      () => null,
      (error: unknown) => error as EsignError,
    );
    expect(failed?.code).to.equal('rate-limited');
    expect(controller.state).to.equal('error');
    expect(controller.endChoices().wait, 'the time left, in words').to.be.a('string').and.not.equal('');
    expect([service.count('start'), service.count('poll'), seen.events.started]).to.deep.equal([1, 0, 0]);
    expect(seen.events.error.map((e) => e.code)).to.deep.equal(['rate-limited']);
  });

  it('a page that went away and came back polls at once and says where to finish', async () => {
    const { host, controller, service } = await made();
    host.pollInterval = 60_000;
    service.polls = ['waiting'];
    const running = start(controller);
    await until(() => service.count('poll') === 1, 'the first poll');
    document.dispatchEvent(new Event('freeze'));
    service.polls = ['ok'];
    document.dispatchEvent(new Event('resume'));
    // a minute's interval: only the wake brings the next poll this soon
    expect(await running).to.equal('OK TESTNUMBER');
    expect(service.count('poll')).to.equal(2);
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'waiting:back-on-page', 'success']);
  });

  it('a page that came back while a poll was on its way polls again at once after it', async () => {
    const { host, controller, service } = await made();
    host.pollInterval = 60_000;
    service.polls = ['waiting', 'ok'];
    let first = true;
    service.onPoll = () => {
      if (!first) return;
      first = false;
      document.dispatchEvent(new Event('freeze'));
      document.dispatchEvent(new Event('resume'));
    };
    // a minute's interval: only the wake heard during the first poll brings the second this soon
    expect(await start(controller)).to.equal('OK TESTNUMBER');
    expect(service.count('poll')).to.equal(2);
    expect(host.drawn.at(-1)).to.equal('success');
  });

  it('an element taken off the page stops its session: the poll in flight given up, no request after it', async () => {
    const { host, controller, service, seen } = await made();
    service.polls = ['hang'];
    const running = start(controller).catch((error: unknown) => error);
    await until(() => service.count('poll') === 1, 'the poll in flight');
    host.remove();
    const ended = await running;
    expect((ended as EsignError).code).to.equal('cancelled');
    const asked = service.asked.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(service.asked.length, 'nothing sent after').to.equal(asked);
    expect(seen.announced).to.deep.equal([]);
    expect(seen.events.cancelled, 'no event from an element that left').to.equal(0);
  });

  it('cancels: the session removed at the service, one cancelled event, the start rejected as cancelled', async () => {
    const { host, controller, service, seen } = await made();
    service.polls = ['waiting'];
    const running = start(controller).catch((error: unknown) => error);
    await until(() => controller.state === 'waiting', 'waiting');
    await controller.cancel();
    expect(((await running) as EsignError).code).to.equal('cancelled');
    expect(host.drawn.at(-1)).to.equal('cancelled');
    expect(service.count('remove')).to.equal(1);
    expect([seen.events.cancelled, seen.announced.length]).to.deep.equal([1, 0]);
  });

  it('keeps a waiting session for a reload and follows it on: the spec given back what it kept, no second start', async () => {
    const first = await made(undefined, 'kept');
    first.service.polls = ['waiting'];
    const running = start(first.controller).catch(() => undefined);
    await until(() => sessionStorage.getItem(recordKey(first.host)) !== null, 'kept in the tab');
    // the page goes away (its element's leaving drops the record: a reload keeps it)
    const record = sessionStorage.getItem(recordKey(first.host))!;
    first.host.remove();
    await running;
    sessionStorage.setItem(recordKey(first.host), record);
    const second = await made(undefined, 'kept');
    second.service.polls = ['ok'];
    await second.controller.resumeKept();
    expect(second.seen.restored).to.deep.equal([{ extra: 'kept beside it' }]);
    expect([second.service.count('start'), second.service.count('poll')]).to.deep.equal([0, 1]);
    expect(second.controller.token).to.equal('fake-token-1');
    expect(second.seen.announced).to.deep.equal([['OK TESTNUMBER', 'success']]);
    expect(sessionStorage.getItem(recordKey(second.host)), 'dropped once ended').to.equal(null);
  });

  it('says "back" for a few seconds, then nothing, while the session still waits: the line goes by the controller, not a clock in the drawing', async () => {
    const { host, controller, service, seen } = await made();
    service.polls = ['waiting', 'drop', 'drop', 'waiting'];
    const running = start(controller).catch((error: unknown) => error);
    await until(() => host.drawn.includes('waiting:back'), 'the connection back');
    await until(() => host.drawn.at(-1) === 'waiting', 'the line gone', BACK_SHOWN_MS + 10_000);
    expect(controller.connection).to.equal('');
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'waiting:lost', 'waiting:back', 'waiting']);
    await controller.cancel();
    expect(((await running) as EsignError).code).to.equal('cancelled');
    expect([seen.events.started, seen.events.cancelled, seen.events.error.length, seen.announced.length]).to.deep.equal([1, 1, 0, 0]);
  });

  it('fixes its time limit as it starts: the deadline shown, the poll and the kept record all from it, whatever the host sets later', async () => {
    const { host, controller, service } = await made();
    service.polls = ['waiting'];
    const running = start(controller).catch((error: unknown) => error);
    await until(() => controller.state === 'waiting', 'waiting');
    const since = controller.since;
    // the person's three minutes; the session followed half a minute more (the kept record's end)
    expect(controller.deadline).to.equal(since + PERSON_TIME_LIMIT.smartid);
    const kept = JSON.parse(sessionStorage.getItem(recordKey(host))!) as { until: number };
    expect(kept.until).to.equal(since + DEFAULT_TIME_LIMIT.smartid);
    host.timeLimit = 30_000;
    host.requestUpdate();
    expect(controller.deadline, 'a later time-limit is for the next session').to.equal(since + PERSON_TIME_LIMIT.smartid);
    await controller.cancel();
    await running;
    // the host's shorter limit is the person's deadline and the session's end alike
    service.polls = ['waiting'];
    const second = start(controller).catch((error: unknown) => error);
    await until(() => controller.state === 'waiting', 'waiting again');
    expect(controller.deadline).to.equal(controller.since + 30_000);
    expect((JSON.parse(sessionStorage.getItem(recordKey(host))!) as { until: number }).until).to.equal(controller.since + 30_000);
    await controller.cancel();
    await second;
  });

  it('draws from one map by state: each state its entry, in order', async () => {
    const { controller, service } = await made();
    const map: ByState<string> = { idle: 'form', starting: 'busy', waiting: 'code', success: 'done', error: 'failed', cancelled: 'stopped' };
    const picked: string[] = [controller.render(map)];
    service.polls = ['waiting'];
    // the start held until the busy state was read
    let answer!: () => void;
    const started = new Promise<void>((resolve) => (answer = resolve));
    const startAnswer = service.start;
    service.start = () => started.then(startAnswer);
    const running = start(controller);
    await until(() => controller.state === 'starting', 'starting');
    picked.push(controller.render(map));
    answer();
    await until(() => controller.state === 'waiting', 'waiting');
    picked.push(controller.render(map));
    service.polls = ['ok'];
    await running;
    picked.push(controller.render(map));
    expect(picked).to.deep.equal(['form', 'busy', 'code', 'done']);
  });
});
