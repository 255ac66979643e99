import { samplePdf } from '../../sample-pdf.js';
import { findRoute } from '../../service/routes.js';
import { Jar, type Check } from '../prober.js';

const ID = '0b0e0000-0000-4000-8000-000000000001';

/** Every session operation passes, in both locales: starts, a status poll each, removals. */
export const allowListPass: Check = {
  id: 'allow-list-pass',
  rule: ({ options }) =>
    `every session operation passes in both locales (starts, statuses, removal)${options.signer ? '; signing as the signed-in person' : ''}`,
  async run({ post, send, mark, reachedSince, show, options, signingJar }) {
    const signer = options.signer;
    // the gate's person signs here: their logins too would go past the per-person limit
    const smart = ['40504040001', '30303039914', '61101019999'].filter((code) => code !== signer?.code.replace(/-/g, ''));
    // the gate's person signs several times here: their logins would go past the per-person limit
    const mobile = (
      [
        ['+37200000766', '60001019906'],
        ['+37060000666', '50001018865'],
        ['+37268000769', '60001017869'],
      ] as [string, string][]
    ).filter(([, code]) => code !== signer?.code.replace(/-/g, ''));
    const pdf = { files: [{ name: 'probe.pdf', content: Buffer.from(samplePdf('Probe')).toString('base64') }] };
    const hash = 'ab'.repeat(32);
    let failure: string | null = null;
    let n = 0;
    for (const locale of ['', '/en']) {
      for (const [kind, startPath, statusPath, removal] of [
        ['login', '/smartid/login.json', '/smartid/status/', '/api/smartid/session/'],
        ['sign', '/smartid/sign.json', '/smartid/sign/status/', null],
        ['hash', '/smartid/sign/hash.json', '/smartid/sign/hash/status/', null],
        ['login', '/mobile/login.json', '/mobile/status/', '/api/mobile/session/'],
        ['sign', '/mobile/sign.json', '/mobile/sign/status/', null],
        ['hash', '/mobile/sign/hash.json', '/mobile/sign-hash/status/', null],
      ] as const) {
        n++;
        const mobileChannel = startPath.startsWith('/mobile');
        const [phone, mcode] = mobile[n % mobile.length]!;
        // behind a signing gate, signing is for its person (who may have no account on one channel)
        const gated = signer !== undefined && kind !== 'login';
        // a person is a country and a code: a signer's Mobile-ID phone is of their country
        const signerPhone = signer?.phone ?? (signer?.country === 'LT' ? '+37060000666' : '+37268000769');
        // Mobile-ID exists in Lithuania and Estonia, hash signing too: a Latvian signer has neither
        if (gated && signer.country === 'LV' && (mobileChannel || kind === 'hash')) continue;
        const person = gated
          ? mobileChannel
            ? { phone: signerPhone, code: signer.code }
            : { code: signer.code, country: signer.country }
          : mobileChannel
            ? { phone, code: mcode }
            : { code: smart[n % smart.length]!, country: 'LT' };
        const body =
          kind === 'login'
            ? person
            : kind === 'sign'
              ? { ...person, type: 'pdf', pdf }
              : { ...person, hash, hash_algorithm: 'SHA256', country: mobileChannel ? 'EE' : person.country };
        if (kind === 'hash' && mobileChannel) Object.assign(body, { country: (gated ? signerPhone : phone).startsWith('+370') ? 'LT' : 'EE' });
        const jar = gated ? signingJar() : new Jar();
        const started0 = mark();
        const started = await post(`${locale}${startPath}`, body, jar);
        const reached = reachedSince(started0).some((r) => r.path === `${locale}${startPath}`);
        // a signer without an account on this channel: the service's own refusal is a pass
        if (reached && gated && started.json?.['status'] === 'error') continue;
        if (!reached || started.json?.['status'] !== 'ok') {
          failure ??= show(`POST ${locale}${startPath}`, started);
          continue;
        }
        const token = String(started.json['token']);
        const polled = mark();
        const poll = await post(`${locale}${statusPath}${token}.json`, {}, jar);
        if (!reachedSince(polled).some((r) => r.path === `${locale}${statusPath}${token}.json`))
          failure ??= show(`POST ${locale}${statusPath}<token>.json`, poll);
        if (removal) {
          const before = mark();
          const removed = await send({ method: 'DELETE', path: `${locale}${removal}${token}`, body: '{}', jar });
          if (!reachedSince(before).some((r) => r.path === `${locale}${removal}${token}`) || removed.json?.['status'] !== 'ok')
            failure ??= show(`DELETE ${locale}${removal}<token>`, removed);
        }
      }
    }
    return failure;
  },
};

/** Paths, methods, encodings and queries that name no operation, or name one in disguise. */
const TRICKS: readonly [method: string, path: string][] = (() => {
  const tricks: [string, string][] = [];
  const paths = ['/smartid/login.json', '/mobile/login.json', `/mobile/status/${ID}.json`, '/api/document/upload.json', `/api/mobile/session/${ID}`];
  const mutate = [
    (p: string) => `${p}?access_token=x`,
    (p: string) => `${p}#x`,
    (p: string) => p.replace('/', '//'),
    (p: string) => p.replace(/\/([^/]+)$/, '/../$1'),
    (p: string) => p.replace(/\/([^/]+)$/, '/./$1'),
    (p: string) => p.replace('.json', '%2ejson'),
    (p: string) => p.replace(/\//g, '%2F'),
    (p: string) => p.replace('/', '/%2e%2e/'),
    (p: string) => p.toUpperCase(),
    (p: string) => `/en/en${p}`,
    (p: string) => `/lt${p}`,
    (p: string) => `${p}/`,
    (p: string) => `${p}.json`,
    (p: string) => `${p}%00`,
    (p: string) => `${p}%0a`,
    (p: string) => p.replace('/', '\\'),
    (p: string) => `${p};x`,
    (p: string) => p.replace('login', 'log%69n'),
    (p: string) => `/admin${p}`,
    (p: string) => `/..${p}`,
  ];
  for (const path of paths) {
    for (const change of mutate) tricks.push(['POST', change(path)]);
    for (const method of ['GET', 'PUT', 'PATCH', 'OPTIONS', 'TRACE', 'HEAD']) tricks.push([method, path]);
  }
  for (const path of [
    '/',
    '/api',
    '/api/document',
    '/api/document/generate-temporary-signing-link.json/x',
    `/en/api/document/${ID}/signers.json`,
    `/api/document/${ID}/signers.json/../../upload.json`,
  ])
    tricks.push(['POST', path]);
  for (let i = 0; i < 120; i++)
    tricks.push(['POST', `/smartid/status/${'a'.repeat(i % 3 === 0 ? 129 : 1)}${['..', '.', '%2f', '%2e', '~', '$', '@', ' '][i % 8]}${i}.json`]);
  return tricks;
})();

/** Every trick is refused and none reaches the service (a dot segment a framework resolved first, to a real operation, is no bypass). */
export const allowListRefuse: Check = {
  id: 'allow-list-refuse',
  rule: `${TRICKS.length} path, method, encoding and query tricks are refused and never reach the service`,
  async run({ send, mark, reachedSince, show }) {
    let failure: string | null = null;
    for (const [method, path] of TRICKS) {
      const before = mark();
      const answer = await send({ method, path, body: method === 'GET' || method === 'HEAD' ? undefined : '{}', jar: new Jar() }).catch((error: Error) => ({
        status: 400,
        text: error.message,
        headers: {},
        json: null,
      }));
      const reached = reachedSince(before);
      // a framework may resolve dot segments first (fetch-style handlers only see the resolved URL):
      // the resolved path reaching the service as an operation of its own is no bypass
      const resolved = new URL(path.replace(/\\/g, '/'), 'http://x').pathname;
      const resolvedOnly =
        resolved !== path && /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path) && reached.every((r) => r.path === resolved && findRoute(r.method, r.path) !== null);
      if (reached.length > 0 ? !resolvedOnly : answer.status < 400)
        failure ??= `${show(`${method} ${path}`, answer)} (reached the service${reached.length ? ` as ${reached.map((r) => `${r.method} ${r.path}`).join(', ')}` : ': no'})`;
    }
    return failure;
  },
};
