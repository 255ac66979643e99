import { expect, fixture, html as testHtml } from '@open-wc/testing';
import { EsignError, type EsignErrorDetail } from '../../src/client/errors.js';
import { smartIdLogin, SESSION_STATUS, type StatusAnswers } from '../../src/protocol/operations.js';
import { SessionController, type SessionConfig, type SessionState, type StartRequest } from '../../src/internal/session/session-controller.js';
import { recordKey } from '../../src/internal/session/session-record.js';
import './session-host.js';
import type { RecordingSessionHost } from './session-host.js';
import { requestsTo, until } from './helpers.js';

// The session controller alone, with a small element of the test's own in place of a session
// element: the real proxy client, the real proxy and sandbox (personas, and polls broken on the
// way by the test server's fault plan).

type Answer = StatusAnswers['login'];

/** What the controller did through its config and its events, counted. */
interface Seen {
  starts: number;
  finished: Answer[];
  announced: string[];
  kept: number;
  restored: Record<string, string>[];
  events: { started: CustomEvent[]; cancelled: CustomEvent[]; error: CustomEvent<EsignErrorDetail>[] };
}

function config(seen: Seen, kept?: Record<string, string>): SessionConfig<'login', string> {
  return {
    kind: 'login',
    start: (client, _channel, person, signal) => {
      seen.starts++;
      return client.call(smartIdLogin, { code: person.code, country: person.country }, {}, { signal });
    },
    finish: (raw) => {
      seen.finished.push(raw);
      return `${raw.name} ${raw.surname}`;
    },
    announce: (detail) => void seen.announced.push(detail),
    describe: (error) => (error instanceof EsignError ? error.toDetail() : { code: 'unknown', message: String(error), retryable: true }),
    subject: () => 'the subject',
    keep: () => {
      seen.kept++;
      return kept;
    },
    restore: (extra) => void seen.restored.push(extra),
  };
}

async function hostWith(
  kept?: Record<string, string>,
  id = 'one',
): Promise<{ host: RecordingSessionHost; controller: SessionController<'login', string>; seen: Seen }> {
  const host = await fixture<RecordingSessionHost>(testHtml`<recording-session-host id=${id}></recording-session-host>`);
  const seen: Seen = { starts: 0, finished: [], announced: [], kept: 0, restored: [], events: { started: [], cancelled: [], error: [] } };
  host.addEventListener('esign-started', (e) => seen.events.started.push(e));
  host.addEventListener('esign-cancelled', (e) => seen.events.cancelled.push(e));
  host.addEventListener('esign-error', (e) => seen.events.error.push(e));
  const controller = new SessionController<'login', string>(host, config(seen, kept));
  host.controller = controller;
  return { host, controller, seen };
}

const person = (code: string): StartRequest => ({ person: { channel: 'smartid', code, country: 'LT' }, channel: 'smartid' });
const counts = (seen: Seen) => ({ started: seen.events.started.length, cancelled: seen.events.cancelled.length, error: seen.events.error.length });
const faults = (plan?: string) =>
  fetch(`/__faults/poll${plan === undefined ? '' : `?plan=${plan}`}`).then((response) => response.json() as Promise<{ faulted: number; left: number }>);

describe('SessionController', () => {
  afterEach(async () => {
    await faults('');
    sessionStorage.clear();
  });

  it('starts, waits and ends well: the states in order, one started event, the spec finishing once with the answer', async () => {
    const { host, controller, seen } = await hostWith();
    const result = await controller.start(async () => person('40504040001'));
    expect(result).to.equal('OK TESTNUMBER');
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'success']);
    expect(counts(seen)).to.deep.equal({ started: 1, cancelled: 0, error: 0 });
    const started = seen.events.started[0]!;
    expect(started.detail).to.deep.equal({ token: controller.token, channel: 'smartid', controlCode: controller.controlCode, kind: 'login' });
    expect(controller.token).to.match(/\S/);
    expect(controller.controlCode).to.match(/^\d{4}$/);
    expect(seen.starts).to.equal(1);
    expect(seen.finished.map((raw) => raw.status)).to.deep.equal(['ok']);
    expect(seen.announced).to.deep.equal(['OK TESTNUMBER']);
    expect(controller.result).to.equal(seen.finished[0]);
    expect([controller.subject, controller.who, controller.channel]).to.deep.equal(['the subject', '4050••••001', 'smartid']);
    // the status asked is the protocol's for a Smart-ID login
    expect(requestsTo(`/esign/en${SESSION_STATUS.login.smartid.path.split('{token}')[0]}`)).to.be.greaterThan(0);
    // once it ended, nothing is kept for a reload
    expect(sessionStorage.getItem(recordKey(host))).to.equal(null);
  });

  it('keeps its state read-only from outside', async () => {
    const { controller } = await hostWith();
    const fields = [
      'state',
      'channel',
      'token',
      'controlCode',
      'since',
      'error',
      'fieldError',
      'connection',
      'cameBack',
      'result',
      'expired',
      'who',
      'subject',
      'busy',
      'deadline',
    ];
    for (const field of fields) {
      expect(() => Object.assign(controller, { [field]: 'x' }), field).to.throw(TypeError);
    }
    expect(controller.state).to.equal('idle');
  });

  it('runs one start at a time: a second start while one runs is the same session', async () => {
    const { controller, seen } = await hostWith();
    let prepared = 0;
    const prepare = async () => {
      prepared++;
      return person('40504040001');
    };
    const first = controller.start(prepare);
    const second = controller.start(prepare);
    expect(second).to.equal(first);
    await first;
    expect([prepared, seen.starts, seen.finished.length]).to.deep.equal([1, 1, 1]);
    expect(counts(seen)).to.deep.equal({ started: 1, cancelled: 0, error: 0 });
    // once it settled, a start is a new session
    await controller.start(prepare);
    expect([prepared, seen.starts, seen.finished.length]).to.deep.equal([2, 2, 2]);
    expect(counts(seen)).to.deep.equal({ started: 2, cancelled: 0, error: 0 });
  });

  it('says the connection lost while polls fail and back when one goes through, and ends once', async () => {
    await faults('drop,502,drop,502');
    const { host, controller, seen } = await hostWith();
    await controller.start(async () => person('40504040001'));
    expect((await faults()).faulted).to.equal(4);
    expect(host.drawn).to.deep.equal(['starting', 'waiting', 'waiting:lost', 'waiting:back', 'success']);
    expect(counts(seen)).to.deep.equal({ started: 1, cancelled: 0, error: 0 });
    expect(seen.finished).to.have.length(1);
  });

  it('cancels: polling stops, the session is removed at the service, one cancelled event, the start rejected as cancelled', async () => {
    const { host, controller, seen } = await hostWith();
    const removals = requestsTo('/esign/en/api/smartid/session/');
    const running = controller.start(async () => person('39001010607'));
    const outcome = running.then(
      () => 'ended well',
      (error: EsignError) => error.code,
    );
    await until(() => controller.state === 'waiting', 'waiting');
    await controller.cancel();
    expect(await outcome).to.equal('cancelled');
    expect(controller.state).to.equal('cancelled');
    expect(host.drawn.at(-1)).to.equal('cancelled');
    expect(counts(seen)).to.deep.equal({ started: 1, cancelled: 1, error: 0 });
    expect(seen.events.cancelled[0]!.detail).to.deep.equal({ token: controller.token, channel: 'smartid' });
    expect(seen.finished).to.have.length(0);
    await until(() => requestsTo('/esign/en/api/smartid/session/') === removals + 1, 'the removal at the service');
    // a cancel with nothing running does nothing
    await controller.cancel();
    expect(counts(seen)).to.deep.equal({ started: 1, cancelled: 1, error: 0 });
  });

  it('keeps a waiting session for a reload and follows it on: same token and code, the spec given back what it kept, no second start', async () => {
    const first = await hostWith({ hash: 'abc' }, 'kept');
    const running = first.controller.start(async () => person('39001010607')).catch(() => undefined);
    await until(() => first.controller.state === 'waiting', 'waiting');
    const key = recordKey(first.host);
    const record = sessionStorage.getItem(key);
    expect(record, 'kept while waiting').to.be.a('string');
    expect(first.seen.kept).to.equal(1);
    const kept = JSON.parse(record!) as Record<string, unknown>;
    expect(kept).to.deep.include({
      kind: 'login',
      channel: 'smartid',
      token: first.controller.token,
      controlCode: first.controller.controlCode,
      who: '3900••••607',
      subject: 'the subject',
      extra: { hash: 'abc' },
    });
    // the page goes away (no removal at the service: a reload does not cancel) and comes back
    first.host.remove();
    await running;
    expect(sessionStorage.getItem(key), 'dropped when its element left').to.equal(null);
    sessionStorage.setItem(key, record!);

    const again = await hostWith(undefined, 'kept');
    const following = again.controller.resumeKept();
    await until(() => again.controller.state === 'waiting', 'waiting again');
    expect([again.controller.token, again.controller.controlCode, again.controller.since]).to.deep.equal([kept['token'], kept['controlCode'], kept['since']]);
    expect(again.seen.restored).to.deep.equal([{ hash: 'abc' }]);
    expect([again.seen.starts, again.seen.kept]).to.deep.equal([0, 0]);
    expect(again.seen.events.started.map((e) => (e.detail as { resumed?: boolean }).resumed)).to.deep.equal([true]);
    await again.controller.cancel();
    await following;
    expect(counts(again.seen)).to.deep.equal({ started: 1, cancelled: 1, error: 0 });
  });

  it('says a kept session past its end expired, drops it and starts nothing', async () => {
    const { host, controller, seen } = await hostWith(undefined, 'late');
    const key = recordKey(host);
    const since = Date.now() - 400_000;
    sessionStorage.setItem(
      key,
      JSON.stringify({
        v: 1,
        kind: 'login',
        channel: 'mobile',
        token: 't',
        controlCode: '1234',
        since,
        until: since + 150_000,
        who: 'x',
        subject: '',
        extra: { a: 'b' },
      }),
    );
    await controller.resumeKept();
    expect([controller.state, controller.expired, controller.channel, host.channel]).to.deep.equal(['error' satisfies SessionState, true, 'mobile', 'mobile']);
    expect(counts(seen)).to.deep.equal({ started: 0, cancelled: 0, error: 1 });
    expect(seen.events.error[0]!.detail.code).to.equal('expired');
    expect(seen.restored).to.deep.equal([{ a: 'b' }]);
    expect(sessionStorage.getItem(key)).to.equal(null);
    expect(seen.starts).to.equal(0);
  });

  it('ends on an input problem of the site without a session, and leaves one of the person to the element', async () => {
    const { controller, seen } = await hostWith();
    const site = new EsignError('misconfigured', 'no hash', { retryable: false });
    const person = new EsignError('invalid-input', 'the code', { field: 'code' });
    expect(await controller.start(() => Promise.reject(person)).catch((error: EsignError) => error)).to.equal(person);
    expect([controller.state, counts(seen)]).to.deep.equal(['idle', { started: 0, cancelled: 0, error: 0 }]);
    expect(await controller.start(() => Promise.reject(site)).catch((error: EsignError) => error)).to.equal(site);
    expect([controller.state, controller.error, counts(seen)]).to.deep.equal(['error', site, { started: 0, cancelled: 0, error: 1 }]);
    expect(controller.endChoices()).to.deep.include({ deadEnd: true, other: null });
    expect(seen.starts).to.equal(0);
  });
});
