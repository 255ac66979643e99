import { GivenUp, Jar, type Answer, type Check } from '../prober.js';

/*
 * The rows of a slow side: a service that never answers (the proxy gives up at its own time limit
 * and says so, never holding the browser longer), and a result hook slower than a browser's
 * patience for one poll (no login lost: the poll given up on still ends the run, a later one brings
 * the result).
 */

/** A proxy's answer within this much of its upstream time limit is in time: its own work and a loaded machine. */
const UPSTREAM_SLACK_MS = 5_000;
/** How long the slow-hook row's polls wait for an answer before giving up, as a browser's request-timeout does. */
const POLL_PATIENCE_MS = 1_500;

export const upstreamTimeout: Check = {
  id: 'upstream-timeout',
  rule: ({ options }) =>
    options.upstreamTimeoutMs
      ? `a service that never answers: the proxy answers 504 within its time limit (${options.upstreamTimeoutMs} ms) and ${UPSTREAM_SLACK_MS / 1000} s, and lets go of the request it sent`
      : 'the service time limit: not checked (no --upstream-timeout given)',
  async run({ options, probe, post, show, wait }) {
    const limit = options.upstreamTimeoutMs;
    if (!limit) return { skipped: "pass --upstream-timeout <ms>: the proxy's time limit for the service's answer, set to a few seconds for the check" };
    probe.answerNothingTo('/smartid/login.json');
    const sent = Date.now();
    let answer: Answer;
    try {
      answer = await post('/smartid/login.json', { code: '40504040001', country: 'LT' }, new Jar(), { giveUpAfterMs: limit + UPSTREAM_SLACK_MS });
    } catch (error) {
      if (error instanceof GivenUp)
        return `the proxy held the browser past its time limit and ${UPSTREAM_SLACK_MS / 1000} s (${limit + UPSTREAM_SLACK_MS} ms) without an answer`;
      throw error;
    }
    const took = Date.now() - sent;
    const held = probe.held.at(-1);
    if (!held) return 'the start never reached the service side';
    if (answer.status !== 504) return `${show('POST /smartid/login.json (the service never answers)', answer)} after ${took} ms: 504 was due`;
    // its side of the connection goes as it answers, or a moment after
    for (let i = 0; i < 40 && held.letGo === null; i++) await wait(50);
    if (held.letGo === null) return 'the proxy answered 504 but keeps its request to the service open';
    return null;
  },
};

export const slowHook: Check = {
  id: 'slow-hook',
  rule: `a result hook slower than a poll's patience (${POLL_PATIENCE_MS} ms) loses no login: the poll given up on still ends the run, a later poll brings the result, the hook run once`,
  async run({ post, show, wait, probe }) {
    const jar = new Jar();
    // a person of its own (the sandbox's screening person, screened for nothing here): the other rows' people keep their starts
    const start = await post('/mobile/login.json', { phone: '+37060000714', code: '49001010714' }, jar);
    if (start.json?.['status'] !== 'ok') return show('POST /mobile/login.json', start);
    const token = String(start.json['token']);
    const path = `/mobile/status/${token}.json`;
    const seen: string[] = [];
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline && !seen.includes('ok')) {
      await wait(500);
      const answer = await post(path, {}, jar, { giveUpAfterMs: POLL_PATIENCE_MS }).catch((error: unknown) => {
        if (error instanceof GivenUp) return null;
        throw error;
      });
      if (!answer) {
        seen.push('given up');
        continue;
      }
      const status = String(answer.json?.['status'] ?? answer.status);
      seen.push(status);
      if (status !== 'ok' && status !== 'waiting') {
        if (!probe.hookMarks.some((mark) => mark.token === token)) break;
        return `${show(`POST ${path}`, answer)} (polls: ${seen.join(', ')})`;
      }
    }
    const marks = probe.hookMarks.filter((mark) => mark.token === token);
    const begun = marks.filter((mark) => mark.at === 'start');
    const ended = marks.find((mark) => mark.at === 'end');
    if (!begun.length)
      return {
        skipped: 'start the proxy with ESIGN_CHECK_HOOK_URL=<the sandbox>/__probe/hook and ESIGN_CHECK_HOOK_MS=3000 (a slow hook that reports to the check)',
      };
    if (ended && ended.when - begun[0]!.when < POLL_PATIENCE_MS)
      return { skipped: `the hook took ${ended.when - begun[0]!.when} ms, within a poll's patience: start the proxy with ESIGN_CHECK_HOOK_MS=3000` };
    if (!seen.includes('ok')) return `no result within 45 s (polls: ${seen.join(', ')})`;
    if (begun.length !== 1) return `the result hook ran ${begun.length} times for one login (polls: ${seen.join(', ')})`;
    if (!seen.slice(0, -1).length) return `the first poll brought the result of a hook slower than its patience (polls: ${seen.join(', ')})`;
    return null;
  },
};
