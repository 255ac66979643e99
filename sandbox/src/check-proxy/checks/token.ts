import { madeUpPersonalCode } from '../../service/rules.js';
import type { HostileAnswer } from '../probe.js';
import type { Check } from '../prober.js';

/** The service side sends the token back one way or another: the proxy's answer must not hold it. */
function tokenStaysOut(mode: HostileAnswer, words: string, person: number): Check {
  return {
    id: mode.startsWith('token-') ? mode : `token-${mode}`,
    rule: `the token stays out of the answer when the service side sends it ${words}`,
    async run({ post, probe, mark, reachedSince, show, accessToken }) {
      probe.answerHostile(mode);
      const trapped = probe.trapped;
      const before = mark();
      const answer = await post('/smartid/login.json', { code: madeUpPersonalCode(person), country: 'LT' });
      probe.answerNormally();
      const visible = `${answer.text}${JSON.stringify(answer.headers)}${answer.json ? JSON.stringify(answer.json) : ''}`;
      if (!reachedSince(before).some((r) => r.path === '/smartid/login.json'))
        return `${show('POST /smartid/login.json', answer)} (the start did not reach the service, so this could not be checked)`;
      if (visible.includes(accessToken)) return `${show('POST /smartid/login.json', answer)} (the answer holds the token)`;
      if (mode === 'redirect' && (probe.trapped > trapped || answer.status < 400))
        return `${show('POST /smartid/login.json', answer)} (the redirect was followed or passed on)`;
      return null;
    },
  };
}

export const tokenEchoPlain = tokenStaysOut('echo-plain', 'echoed plainly', 10);
export const tokenEchoEscaped = tokenStaysOut('echo-escaped', 'echoed with JSON escapes, in a value and a key', 11);
export const tokenHeader = tokenStaysOut('token-header', 'in response headers', 12);
export const tokenRedirect = tokenStaysOut('redirect', 'a redirect to elsewhere (not followed)', 13);

/** Over everything this run received: the token was in no answer (run last). */
export const tokenNever: Check = {
  id: 'token-never',
  rule: ({ answers }) => `the token is in none of the ${answers.length} answers of this run`,
  async run({ answers, show, accessToken }) {
    const leaked = answers.find(({ answer }) => `${answer.text}${JSON.stringify(answer.headers)}`.includes(accessToken));
    return leaked ? show(leaked.where, leaked.answer) : null;
  },
};
