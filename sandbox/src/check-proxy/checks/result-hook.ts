import { Jar, type Check, type Prober } from '../prober.js';

/*
 * The rows of a proxy whose result hook reports to the check (ESIGN_CHECK_HOOK_URL): the result
 * handed to the host before the browser sees it, one hook run at a time, and a result the host's
 * site refuses ending the session at once.
 */

/** The marks the check's result hook left at the service side, by token: when each run began and ended. */
function hookMarks(prober: Prober): { token: string; at: 'start' | 'end'; when: number }[] {
  return prober.probe.hookMarks;
}

/**
 * With a proxy whose result hook reports to the check (ESIGN_CHECK_HOOK_URL, see docs/proxy.md):
 * the result of a session reaches no browser before its hook run ended, and the hook never runs
 * twice at once for one session, however many polls come together.
 */
export const resultFirst: Check = {
  id: 'result-first',
  rule: "a session's result reaches the browser only after the host's result hook ended, and the hook never runs twice at once for one session, with polls coming together",
  async run(prober) {
    const { post, show, wait } = prober;
    const jar = new Jar();
    const start = await post('/mobile/login.json', { phone: '+37060000666', code: '50001018865' }, jar);
    if (start.json?.['status'] !== 'ok') return show('POST /mobile/login.json', start);
    const token = String(start.json['token']);
    const path = `/mobile/status/${token}.json`;
    await wait(400);
    const okAt: number[] = [];
    const deadline = Date.now() + 45_000;
    const notReporting = {
      skipped:
        'start the proxy with ESIGN_CHECK_HOOK_URL=<the sandbox>/__probe/hook (its result hook reports to the check; ESIGN_CHECK_HOOK_MS=3000 makes it slow)',
    };
    while (Date.now() < deadline && okAt.length < 3) {
      // four polls together, as tabs or retries of one browser send them
      const answers = await Promise.all(Array.from({ length: 4 }, () => post(path, {}, jar)));
      for (const answer of answers) {
        if (answer.json?.['status'] === 'ok') okAt.push(Date.now());
        // a host whose hook does not report (its own session rotated at the login, say) is not checked here
        else if (answer.json?.['status'] !== 'waiting') return hookMarks(prober).length ? show(`POST ${path}`, answer) : notReporting;
      }
      await wait(600);
    }
    const marks = hookMarks(prober).filter((mark) => mark.token === token);
    if (!marks.length) return notReporting;
    if (!okAt.length) return `no ok came for ${path} within 45 s`;
    let running = 0;
    for (const mark of marks) {
      running += mark.at === 'start' ? 1 : -1;
      if (running > 1) return `the result hook ran twice at once for one session (${JSON.stringify(marks.map((m) => m.at))})`;
    }
    const firstEnd = marks.find((mark) => mark.at === 'end')?.when ?? Infinity;
    if (Math.min(...okAt) < firstEnd) return 'a browser got the result before the result hook ended';
    return null;
  },
};

/**
 * With a proxy whose result hook reports to the check: a site that refuses a result for good (its
 * hook answered 409: a webhook's 4xx) ends the session at once, for that poll and every later one,
 * with 409 site-refused, and the hook is not run again.
 */
export const siteRefused: Check = {
  id: 'site-refused',
  rule: "a result the host's site refuses for good (409 from its hook) ends the session with 409 site-refused at once and on every later poll, the hook not run again, the result never shown",
  async run(prober) {
    const { post, show, wait, probe } = prober;
    const jar = new Jar();
    const start = await post('/mobile/login.json', { phone: '+37060000666', code: '50001018865' }, jar);
    if (start.json?.['status'] !== 'ok') return show('POST /mobile/login.json', start);
    const token = String(start.json['token']);
    probe.refuseResults.add(token);
    const path = `/mobile/status/${token}.json`;
    const deadline = Date.now() + 45_000;
    let ended: Awaited<ReturnType<typeof post>> | null = null;
    while (Date.now() < deadline && !ended) {
      await wait(600);
      const answer = await post(path, {}, jar);
      if (answer.json?.['status'] !== 'waiting') ended = answer;
    }
    const runs = () => hookMarks(prober).filter((mark) => mark.token === token && mark.at === 'start').length;
    if (!runs()) return { skipped: 'start the proxy with ESIGN_CHECK_HOOK_URL=<the sandbox>/__probe/hook (its result hook reports to the check)' };
    if (!ended) return `no end came for ${path} within 45 s`;
    if (ended.status !== 409 || ended.json?.['proxy_error'] !== 'site-refused') return show(`POST ${path} (the site refused the result)`, ended);
    await wait(600);
    const later = await post(path, {}, jar);
    if (later.status !== 409 || later.json?.['proxy_error'] !== 'site-refused') return show(`POST ${path} again`, later);
    if (runs() !== 1) return `the result hook ran ${runs()} times for a result the site refused`;
    return null;
  },
};
