import { samplePdf } from '../../sample-pdf.js';
import { Jar, type Answer, type Check } from '../prober.js';
import { RULEBOOK } from '../rulebook.js';

const LIMIT_ATTEMPTS = 40;
/** More than the rulebook's per-person limit: a stranger's starts that would lock the person out if they counted. */
const STRANGER_STARTS = 2 * RULEBOOK.rateLimits.perPerson.limit;

/** One visitor's session token is worthless to another: the service's unknown-token answer, nothing forwarded. */
export const visitorBinding: Check = {
  id: 'visitor-binding',
  rule: "one visitor's session token is refused for another (40402), and not forwarded",
  async run({ post, send, mark, reachedSince, show }) {
    const owner = new Jar();
    const start = await post('/mobile/login.json', { phone: '+37200000766', code: '60001019906' }, owner);
    const token = String(start.json?.['token'] ?? '');
    if (start.json?.['status'] !== 'ok') return show('POST /mobile/login.json', start);
    let failure: string | null = null;
    let before = mark();
    const foreign = await post(`/mobile/status/${token}.json`, {}, new Jar());
    if (reachedSince(before).length || foreign.json?.['error_code'] !== 40402) failure ??= show('another visitor: POST /mobile/status/<token>.json', foreign);
    before = mark();
    const foreignRemoval = await send({ method: 'DELETE', path: `/api/mobile/session/${token}`, body: '{}', jar: new Jar() });
    if (reachedSince(before).length) failure ??= show('another visitor: DELETE /api/mobile/session/<token>', foreignRemoval);
    before = mark();
    const own = await post(`/mobile/status/${token}.json`, {}, owner);
    if (!reachedSince(before).length) failure ??= show('the same visitor: POST /mobile/status/<token>.json', own);
    return failure;
  },
};

/** PEP and sanctions data stay on the server, unless the host says its proxy passes them on purpose. */
export const screening: Check = {
  id: 'screening',
  rule: ({ options }) => (options.exposesScreening ? 'screening data reaches the browser (the proxy exposes it)' : 'PEP and sanctions data stay on the server'),
  async run({ post, show, wait, options }) {
    const jar = new Jar();
    const start = await post('/mobile/login.json', { phone: '+37060000708', code: '39001010708', peps: true }, jar);
    let done: Answer | null = null;
    for (let i = 0; i < 40 && start.json?.['status'] === 'ok'; i++) {
      await wait(100);
      done = await post(`/mobile/status/${String(start.json['token'])}.json`, {}, jar);
      if (done.json?.['status'] !== 'waiting') break;
    }
    if (!done || done.json?.['status'] !== 'ok') return show("a PEP person's login", done ?? start);
    if (options.exposesScreening && !Array.isArray(done.json['peps_data']))
      return `${show('POST /mobile/status/<token>.json', done)} (the proxy says it exposes screening)`;
    if (!options.exposesScreening && ('peps_data' in done.json || 'sanctions_data' in done.json)) return show('POST /mobile/status/<token>.json', done);
    return null;
  },
};

/** Session starts for one person are limited (last: it leaves the person limited). */
export const rateLimit: Check = {
  id: 'rate-limit',
  rule: `session starts for one person are limited: 429 with Retry-After within ${LIMIT_ATTEMPTS} starts`,
  async run({ post, show }) {
    for (let i = 0; i < LIMIT_ATTEMPTS; i++) {
      const answer = await post('/smartid/login.json', { code: '40504040001', country: 'EE' });
      if (answer.status === 429) {
        const retry = Number(answer.headers['retry-after']);
        return Number.isFinite(retry) && retry > 0 ? null : show('POST /smartid/login.json (429 without Retry-After)', answer);
      }
      if (answer.json?.['status'] !== 'ok') return show('POST /smartid/login.json', answer);
    }
    return 'no 429 came';
  },
};

/**
 * Nobody locks a stranger out of Mobile-ID with their personal code alone: the service accepts a
 * start whose phone is not the person's (the mismatch shows only at the poll), no push reaches
 * them, and an attacker never polls. Such starts must not use up the person's limit.
 */
export const noLockout: Check = {
  id: 'no-lockout',
  rule: `Mobile-ID starts with a person's code and ${STRANGER_STARTS} phones not theirs (each a new visitor) do not lock that person out`,
  async run({ post, show }) {
    const code = '60001017869';
    for (let i = 0; i < STRANGER_STARTS; i++) {
      // well-formed Estonian numbers that belong to nobody in the sandbox
      const phone = `+3725${String(4_100_000 + i * 7919).padStart(7, '0')}`;
      const answer = await post('/mobile/login.json', { phone, code });
      if (answer.status === 429) return show(`POST /mobile/login.json (the person's code, a phone not theirs, start ${i + 1})`, answer);
    }
    const own = await post('/mobile/login.json', { phone: '+37268000769', code });
    if (own.status === 429 || own.json?.['status'] !== 'ok') return show('POST /mobile/login.json (the person, with their own phone, afterwards)', own);
    return null;
  },
};

/**
 * With a signing gate (`--signer`): a signing start for anyone but the signed-in person is refused
 * 403 `signer-mismatch` and reaches nothing; one for them passes.
 */
export const signerGate: Check = {
  id: 'signer-gate',
  rule: ({ options }) =>
    options.signer
      ? 'signing starts for another person than the signed-in one are refused (403 signer-mismatch), unforwarded'
      : 'signing gate: not checked (no --signer given)',
  async run({ post, mark, reachedSince, show, options, signingJar }) {
    const signer = options.signer;
    if (!signer) return { skipped: 'pass --signer <code,country[,phone]> (or --login <code,country>) when the proxy signs only as the signed-in person' };
    const code = signer.code.replace(/-/g, '');
    const smartOther = code === '40504040001' ? '30303039914' : '40504040001';
    const [phoneOther, codeOther] = code === '60001017869' ? ['+37060000666', '50001018865'] : ['+37268000769', '60001017869'];
    const pdf = { files: [{ name: 'probe.pdf', content: Buffer.from(samplePdf('Gate')).toString('base64') }] };
    const others: [string, Record<string, unknown>][] = [
      ['/smartid/sign.json', { code: smartOther, country: 'LT', type: 'pdf', pdf }],
      ['/en/mobile/sign.json', { phone: phoneOther, code: codeOther, type: 'pdf', pdf }],
      ['/smartid/sign/hash.json', { code: smartOther, country: 'LT', hash: 'cd'.repeat(32), hash_algorithm: 'SHA256' }],
      [
        '/mobile/sign/hash.json',
        { phone: phoneOther, code: codeOther, country: phoneOther.startsWith('+370') ? 'LT' : 'EE', hash: 'cd'.repeat(32), hash_algorithm: 'SHA256' },
      ],
    ];
    for (const [path, body] of others) {
      const before = mark();
      const answer = await post(path, body, signingJar());
      if (answer.status !== 403 || answer.json?.['proxy_error'] !== 'signer-mismatch' || reachedSince(before).length)
        return show(`POST ${path} (another person)`, answer);
    }
    const before = mark();
    const own = await post('/smartid/sign.json', { code: signer.code, country: signer.country, type: 'pdf', pdf }, signingJar());
    if (!reachedSince(before).length) return show('POST /smartid/sign.json (the signed-in person)', own);
    return null;
  },
};

/** Estonia's and Lithuania's OK person of the sandbox: the same eleven digits, two people. */
const TWO_COUNTRIES_CODE = '40504040001';

/**
 * A person is a country and a code: Smart-ID starts for the same digits in another country reach
 * another account, so however many there are, they never lock this person out.
 */
export const noLockoutCountry: Check = {
  id: 'no-lockout-country',
  rule: `Smart-ID starts for ${TWO_COUNTRIES_CODE} in Lithuania (${STRANGER_STARTS}, each a new visitor) do not lock out ${TWO_COUNTRIES_CODE} in Estonia, another person`,
  async run({ post, show }) {
    for (let i = 0; i < STRANGER_STARTS; i++) {
      const answer = await post('/smartid/login.json', { code: TWO_COUNTRIES_CODE, country: 'LT' });
      if (answer.status === 429) break; // the Lithuanian person's own limit, as it should be
      if (answer.json?.['status'] !== 'ok') return show(`POST /smartid/login.json (LT, start ${i + 1})`, answer);
    }
    const estonian = await post('/smartid/login.json', { code: TWO_COUNTRIES_CODE, country: 'EE' });
    if (estonian.status === 429 || estonian.json?.['status'] !== 'ok') return show('POST /smartid/login.json (the Estonian person, afterwards)', estonian);
    return null;
  },
};

/**
 * With a signing gate (`--signer`): the same digits in another country are another person. A
 * Smart-ID signing start with the signer's code and another country, and a Mobile-ID one with a
 * phone of another country, are refused 403 `signer-mismatch` and reach nothing.
 */
export const signerCountry: Check = {
  id: 'signer-country',
  rule: ({ options }) =>
    options.signer
      ? "signing starts with the signed-in person's digits and another country (or a Mobile-ID phone of another country) are refused (403 signer-mismatch), unforwarded"
      : 'signing gate by country: not checked (no --signer given)',
  async run({ post, mark, reachedSince, show, options, signingJar }) {
    const signer = options.signer;
    if (!signer) return { skipped: 'pass --signer <code,country[,phone]> (or --login <code,country>) when the proxy signs only as the signed-in person' };
    const other = signer.country === 'LT' ? 'EE' : 'LT';
    const otherPhone = other === 'LT' ? '+37060000666' : '+37268000769';
    const pdf = { files: [{ name: 'probe.pdf', content: Buffer.from(samplePdf('Country')).toString('base64') }] };
    const starts: [string, Record<string, unknown>][] = [
      ['/smartid/sign.json', { code: signer.code, country: other, type: 'pdf', pdf }],
      ['/smartid/sign/hash.json', { code: signer.code, country: other, hash: 'cd'.repeat(32), hash_algorithm: 'SHA256' }],
      ['/mobile/sign.json', { phone: otherPhone, code: signer.code, type: 'pdf', pdf }],
    ];
    for (const [path, body] of starts) {
      const before = mark();
      const answer = await post(path, body, signingJar());
      if (answer.status !== 403 || answer.json?.['proxy_error'] !== 'signer-mismatch' || reachedSince(before).length)
        return show(`POST ${path} (the signer's digits, ${other})`, answer);
    }
    return null;
  },
};
