import { randomBytes } from 'node:crypto';
import { Sandbox, type RunningSandbox } from '../server.js';
import { createProber, Jar, type Check, type CheckOptions, type Prober } from './prober.js';
import { allowListPass, allowListRefuse } from './checks/allow-list.js';
import { bodyLimit, fieldShapes, fields, formBodies, jsonOnly } from './checks/bodies.js';
import { crossSite, scheme } from './checks/origins.js';
import { requestId } from './checks/request-id.js';
import { noLockout, noLockoutCountry, rateLimit, screening, signerCountry, signerGate, visitorBinding } from './checks/sessions.js';
import { failClosed, limitsExact, pollFloor, smallBodies } from './checks/rules.js';
import { resultFirst, siteRefused } from './checks/result-hook.js';
import { slowHook, upstreamTimeout } from './checks/slow-service.js';
import { events, eventsMark } from './checks/events.js';
import { stateAtRest } from './checks/state-at-rest.js';
import { tokenEchoEscaped, tokenEchoPlain, tokenHeader, tokenNever, tokenRedirect } from './checks/token.js';

/*
 * `esign-sandbox check-proxy <proxy-url>`: probes a host's proxy, in any language, against the
 * rules of the proxy checklist, with this sandbox behind it in probe mode (it sees what reaches the
 * service side and can answer like a hostile service).
 */

export type { CheckOptions } from './prober.js';

export interface CheckRow {
  id: string;
  rule: string;
  ok: boolean;
  /** For a failure: the request that showed it and what came back. */
  evidence?: string;
  note?: string;
  /** The row checked nothing (why): it neither passes nor fails. */
  skipped?: string;
}

/**
 * The checklist, in the order it runs: each check reads alone in checks/. The rate limit comes
 * late (it leaves the person limited), the events and the state at rest after every request that
 * makes them, and the token in no answer last (it looks over them all).
 */
export const CHECKS: readonly Check[] = [
  allowListPass,
  allowListRefuse,
  fields,
  jsonOnly,
  formBodies,
  fieldShapes,
  crossSite,
  scheme,
  requestId,
  visitorBinding,
  signerGate,
  signerCountry,
  screening,
  tokenEchoPlain,
  tokenEchoEscaped,
  tokenHeader,
  tokenRedirect,
  bodyLimit,
  smallBodies,
  pollFloor,
  upstreamTimeout,
  resultFirst,
  siteRefused,
  slowHook,
  failClosed,
  noLockout,
  noLockoutCountry,
  limitsExact,
  rateLimit,
  events,
  stateAtRest,
  tokenNever,
];

export async function checkProxy(options: CheckOptions): Promise<{ rows: CheckRow[]; sandbox: string; accessToken: string }> {
  const accessToken = options.accessToken ?? `probe-${randomBytes(12).toString('hex')}`;
  // a session is answered after a second: the allow-list row's poll right after a start still finds it running on a loaded
  // machine, and the removal after it removes a live session (one already read finished is gone at the service)
  const sandbox = new Sandbox({ accessToken, answerAfterMs: 1_000, slowAnswerAfterMs: 60_000, probe: true });
  const running: RunningSandbox = await sandbox.listen(options.port ?? 0);
  // logged in first: the checks sign as that person, with that browser's cookies
  const signer = options.signer ?? options.login;
  // a sandbox made with probe: true has its probe
  if (!sandbox.probe) throw new Error("the check's sandbox has no probe");
  const prober = createProber(signer ? { ...options, signer } : options, accessToken, sandbox.probe);
  prober.eventsFrom = await eventsMark(options.events);
  try {
    await options.onReady?.({ url: running.url, accessToken });
    // the proxy answers at all
    const deadline = Date.now() + (options.waitMs ?? 60_000);
    for (;;) {
      try {
        await prober.send({ method: 'GET', path: '/' });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`the proxy at ${prober.base.href} did not answer`);
        await prober.wait(250);
      }
    }
    if (options.login) await logIn(prober, options.login);
    const rows: CheckRow[] = [];
    for (const check of CHECKS) {
      const found = await check.run(prober);
      const rule = typeof check.rule === 'string' ? check.rule : check.rule(prober);
      if (typeof found === 'object' && found !== null && 'skipped' in found) {
        rows.push({ id: check.id, rule, ok: true, skipped: found.skipped });
        continue;
      }
      const { failure, note } = typeof found === 'object' && found !== null ? found : { failure: found, note: undefined };
      rows.push({ id: check.id, rule, ok: failure === null, ...(failure === null ? {} : { evidence: failure }), ...(note ? { note } : {}) });
    }
    return { rows, sandbox: running.url, accessToken };
  } finally {
    await running.close();
  }
}

/** Logs in through the proxy as a sandbox person, as a browser does: the start, then polls until it ends. */
async function logIn(prober: Prober, person: { code: string; country: string }): Promise<void> {
  const jar = new Jar();
  const start = await prober.post('/smartid/login.json', person, jar);
  if (start.json?.['status'] !== 'ok') throw new Error(`--login: ${prober.show('POST /smartid/login.json', start)}`);
  for (let i = 0; i < 60; i++) {
    await prober.wait(300);
    const poll = await prober.post(`/smartid/status/${String(start.json['token'])}.json`, {}, jar);
    if (poll.json?.['status'] === 'ok') {
      prober.session = jar;
      return;
    }
    if (poll.json?.['status'] !== 'waiting') throw new Error(`--login: ${prober.show('POST /smartid/status/<token>.json', poll)}`);
  }
  throw new Error('--login: the login did not end within 18 s');
}

export function checkTable(rows: CheckRow[]): string {
  const lines = ['| rule | result |', '|---|---|'];
  for (const row of rows)
    lines.push(
      `| ${row.rule} | ${row.skipped ? `skipped: ${row.skipped}` : row.ok ? 'pass' : `FAIL: ${row.evidence?.replace(/\|/g, '\\|').replace(/\n/g, ' ')}`} |`,
    );
  const failed = rows.filter((row) => !row.ok).length;
  const skipped = rows.filter((row) => row.skipped).length;
  lines.push('', `${rows.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
  return lines.join('\n');
}
