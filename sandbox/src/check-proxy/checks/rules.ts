import { execSync } from 'node:child_process';
import { Jar, type Answer, type Check } from '../prober.js';
import { RULEBOOK } from '../rulebook.js';

/*
 * The rules a black box shows by their numbers, the rulebook's: the start limits per visitor and
 * per person and the give-back of a start the service refused, the poll floor, the limit on
 * bodies without files, and failing closed when the proxy's state is away (the result hook's rows
 * are in result-hook.ts).
 */

const PER_VISITOR = RULEBOOK.rateLimits.perVisitor.limit;
const PER_PERSON = RULEBOOK.rateLimits.perPerson.limit;
const WINDOW_SECONDS = RULEBOOK.rateLimits.perPerson.windowMs / 1000;
const WINDOW_WORDS = `${WINDOW_SECONDS / 60} minutes`;
const SMALL_BODY_LIMIT = RULEBOOK.sessionBodyLimit;
const POLL_FLOOR_MS = RULEBOOK.minPollIntervalMs;

/** 7th, 13th, 21st: the ordinal of a count. */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
}

/** A made-up, well-formed personal code nobody in the sandbox has (the service refuses its start). */
const nobody = (i: number) => `3${String(10_000_000_000 + i).slice(1)}`;

function retryAfterFits(answer: Answer): boolean {
  const seconds = Number(answer.headers['retry-after']);
  return Number.isFinite(seconds) && seconds > WINDOW_SECONDS - 90 && seconds <= WINDOW_SECONDS;
}

/** The limits by their numbers, and a refused start given back to the person. */
export const limitsExact: Check = {
  id: 'limits-exact',
  rule: `the limits by their numbers: a person's ${ordinal(PER_PERSON + 1)} start in ${WINDOW_WORDS} and a visitor's ${ordinal(PER_VISITOR + 1)} get 429 with a Retry-After of about ${WINDOW_WORDS}, unforwarded; starts the service refused are given back to the person`,
  async run({ post, mark, reachedSince, show }) {
    // one person, each start a new visitor: the limit's starts pass, the next one is refused
    for (let i = 1; i <= PER_PERSON + 1; i++) {
      const before = mark();
      const answer = await post('/smartid/login.json', { code: '61101019999', country: 'EE' });
      const reached = reachedSince(before).length > 0;
      if (i <= PER_PERSON && (answer.json?.['status'] !== 'ok' || !reached))
        return show(`POST /smartid/login.json (one person, start ${i} of ${PER_PERSON})`, answer);
      if (i > PER_PERSON && (answer.status !== 429 || reached || !retryAfterFits(answer)))
        return show(`POST /smartid/login.json (one person, start ${i})`, answer);
    }
    // one person the service has no account for: every start refused by the service, none charged
    for (let i = 0; i < PER_PERSON + 4; i++) {
      const before = mark();
      const answer = await post('/smartid/login.json', { code: nobody(7), country: 'LT' });
      if (answer.status === 429 || !reachedSince(before).length)
        return `${show(`POST /smartid/login.json (a person without an account, start ${i + 1})`, answer)} (a start the service refused was not given back)`;
    }
    // one visitor, each start another person: the limit's starts pass to the service, the next one is refused
    const visitor = new Jar();
    for (let i = 1; i <= PER_VISITOR + 1; i++) {
      const before = mark();
      const answer = await post('/smartid/login.json', { code: nobody(100 + i), country: 'LT' }, visitor);
      const reached = reachedSince(before).length > 0;
      if (i <= PER_VISITOR && (answer.status === 429 || !reached)) return show(`POST /smartid/login.json (one visitor, start ${i} of ${PER_VISITOR})`, answer);
      if (i > PER_VISITOR && (answer.status !== 429 || reached || !retryAfterFits(answer)))
        return show(`POST /smartid/login.json (one visitor, start ${i})`, answer);
    }
    return null;
  },
};

/** Two polls of one session within the floor: the second answered `waiting`, unforwarded. */
export const pollFloor: Check = {
  id: 'poll-floor',
  rule: `a poll of a session sooner than ${POLL_FLOOR_MS} ms after the one before is answered waiting without reaching the service; one after it reaches it`,
  async run({ post, mark, reachedSince, show, wait }) {
    const jar = new Jar();
    // the slow persona: its session is still waiting at every poll here, whatever the machine's load
    // (a finished one would run the proxy's result hook and hold the first poll past the floor)
    const start = await post('/mobile/login.json', { phone: '+37060000607', code: '39001010607' }, jar);
    if (start.json?.['status'] !== 'ok') return show('POST /mobile/login.json', start);
    const path = `/mobile/status/${String(start.json['token'])}.json`;
    // two polls sent the floor apart or more on a busy machine say nothing of it: tried again
    for (let attempt = 1; ; attempt++) {
      const firstSent = Date.now();
      await post(path, {}, jar);
      const before = mark();
      const soonSent = Date.now();
      const soon = await post(path, {}, jar);
      const refused = soon.json?.['status'] === 'waiting' && !reachedSince(before).length;
      if (refused) break;
      if (soonSent - firstSent < POLL_FLOOR_MS - 100 || attempt === 5)
        return show(`POST ${path} (again ${soonSent - firstSent} ms after the one before)`, soon);
      await wait(POLL_FLOOR_MS + 200);
    }
    await wait(POLL_FLOOR_MS + 200);
    const later = mark();
    const after = await post(path, {}, jar);
    if (!reachedSince(later).length) return show(`POST ${path} (${POLL_FLOOR_MS + 200} ms later)`, after);
    return null;
  },
};

/** Bodies of session operations without files: the rulebook's limit at most, refused unforwarded above it. */
export const smallBodies: Check = {
  id: 'small-bodies',
  rule: `a body over ${SMALL_BODY_LIMIT / 1024} KB for an operation without files (a login, a status poll) gets 413 and is not forwarded; one under it passes`,
  async run({ post, send, mark, reachedSince, show }) {
    const padding = 'x'.repeat(SMALL_BODY_LIMIT + 64);
    const over = `${Math.ceil((SMALL_BODY_LIMIT + 64) / 1024)} KB`;
    const under = `${(SMALL_BODY_LIMIT - 1024) / 1024} KB`;
    let before = mark();
    const login = await post('/smartid/login.json', { code: '30303039914', country: 'LT', padding });
    if (login.status !== 413 || reachedSince(before).length) return show(`POST /smartid/login.json (${over})`, login);
    const jar = new Jar();
    const start = await post('/mobile/login.json', { phone: '+37200000766', code: '60001019906' }, jar);
    if (start.json?.['status'] !== 'ok') return show('POST /mobile/login.json', start);
    before = mark();
    const path = `/mobile/status/${String(start.json['token'])}.json`;
    const poll = await send({ method: 'POST', path, body: JSON.stringify({ padding }), jar });
    if (poll.status !== 413 || reachedSince(before).length) return show(`POST ${path} (${over})`, poll);
    before = mark();
    const fits = await post(path, { padding: 'x'.repeat(SMALL_BODY_LIMIT - 1024) }, jar);
    if (!reachedSince(before).length) return show(`POST ${path} (${under})`, fits);
    return null;
  },
};

function runCommand(command: string): string | null {
  try {
    execSync(command, { stdio: 'ignore', timeout: 30_000, shell: '/bin/sh' });
    return null;
  } catch (error) {
    return `the command ${JSON.stringify(command)} failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

/**
 * With `--stop-state` and `--start-state` (shell commands that take the proxy's shared state away
 * and bring it back: stop Redis, make the SQLite file unwritable): a start while the state is away
 * gets 503 with Retry-After and reaches nothing; after it is back, starts work again.
 */
export const failClosed: Check = {
  id: 'fail-closed',
  rule: ({ options }) =>
    options.stopState
      ? "with the proxy's state away, a start gets 503 with Retry-After and reaches nothing; with it back, starts pass"
      : 'failing closed without state: not checked (no --stop-state given)',
  async run({ post, mark, reachedSince, show, options, wait }) {
    if (!options.stopState || !options.startState)
      return { skipped: "pass --stop-state <command> and --start-state <command> that take the proxy's state away and bring it back" };
    const stopped = runCommand(options.stopState);
    if (stopped) return stopped;
    let failure: string | null = null;
    try {
      const before = mark();
      const answer = await post('/smartid/login.json', { code: '30303039914', country: 'LT' });
      const retry = Number(answer.headers['retry-after']);
      if (answer.status !== 503 || !(retry > 0) || reachedSince(before).length) failure = show('POST /smartid/login.json (state away)', answer);
    } finally {
      const started = runCommand(options.startState);
      failure ??= started;
    }
    if (failure) return failure;
    for (let i = 0; i < 20; i++) {
      const answer = await post('/smartid/login.json', { code: '30303039914', country: 'LT' });
      if (answer.json?.['status'] === 'ok') return null;
      if (i === 19) return show('POST /smartid/login.json (state back)', answer);
      await wait(250);
    }
    return null;
  },
};
