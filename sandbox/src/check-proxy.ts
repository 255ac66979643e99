import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomBytes } from 'node:crypto';
import { samplePdf } from './sample-pdf.js';
import type { Probe } from './probe.js';
import { madeUpPersonalCode } from './rules.js';
import { findRoute } from './routes.js';
import { Sandbox, type RunningSandbox } from './server.js';

/*
 * `esign-sandbox check-proxy <proxy-url>`: probes a host's proxy, in any language, against the
 * rules of the proxy checklist, with this sandbox behind it in probe mode (it sees what reaches the
 * service side and can answer like a hostile service).
 */

export interface CheckOptions {
  proxyUrl: string;
  /** The sandbox's port (the proxy must point at it). Default: a free one. */
  port?: number;
  /** The access token the proxy must use. Default: a random one. */
  accessToken?: string;
  /** The proxy passes PEP and sanctions data to the browser on purpose. */
  exposesScreening?: boolean;
  /** How long to wait for the proxy to answer at all, ms. Default 60 000. */
  waitMs?: number;
  /** Called once the sandbox runs, with what the proxy must point at. */
  onReady?: (sandbox: { url: string; accessToken: string }) => void | Promise<void>;
}

export interface CheckRow {
  id: string;
  rule: string;
  ok: boolean;
  /** For a failure: the request that showed it and what came back. */
  evidence?: string;
  note?: string;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown> | null;
  /** Bytes of the body the client managed to send (for the body-limit probe). */
  sent?: number;
}

class Jar {
  cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  keep(headers: IncomingHttpHeaders): void {
    for (const line of headers['set-cookie'] ?? []) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

interface Send {
  method: string;
  path: string;
  body?: string | undefined;
  contentType?: string | null;
  headers?: Record<string, string>;
  jar?: Jar;
}

const ID = '0b0e0000-0000-4000-8000-000000000001';
const LIMIT_ATTEMPTS = 40;

export async function checkProxy(options: CheckOptions): Promise<{ rows: CheckRow[]; sandbox: string; accessToken: string }> {
  const accessToken = options.accessToken ?? `probe-${randomBytes(12).toString('hex')}`;
  const sandbox = new Sandbox({ accessToken, answerAfterMs: 200, slowAnswerAfterMs: 60_000, probe: true });
  const running: RunningSandbox = await sandbox.listen(options.port ?? 0);
  const probe = sandbox.probe as Probe;
  const base = new URL(options.proxyUrl.replace(/\/+$/, ''));
  const answers: { where: string; answer: Answer }[] = [];

  function send(spec: Send): Promise<Answer> {
    const target = new URL(base.href);
    const path = `${target.pathname.replace(/\/+$/, '')}${spec.path}`;
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) {
      headers['content-length'] = Buffer.byteLength(spec.body);
      if (spec.contentType !== null) headers['content-type'] = spec.contentType ?? 'application/json';
    }
    const cookie = spec.jar?.header();
    if (cookie) headers['cookie'] = cookie;
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = send({ hostname: target.hostname, port: target.port, method: spec.method, path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          spec.jar?.keep(res.headers);
          let json: Record<string, unknown> | null = null;
          try {
            const parsed: unknown = JSON.parse(text);
            if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
          } catch {
            json = null;
          }
          const answer = { status: res.statusCode ?? 0, headers: res.headers, text, json };
          answers.push({ where: `${spec.method} ${spec.path}`, answer });
          resolve(answer);
        });
      });
      req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
      req.on('error', reject);
      req.end(spec.body);
    });
  }

  const post = (path: string, body: object, jar = new Jar(), extra: Partial<Send> = {}) => send({ method: 'POST', path, body: JSON.stringify(body), jar, ...extra });
  const show = (spec: string, answer: Answer) => `${spec} → ${answer.status} ${answer.text.slice(0, 160)}`;
  const reachedSince = (mark: number) => probe.reached.slice(mark);
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const rows: CheckRow[] = [];
  const row = (id: string, rule: string, failure: string | null, note?: string) =>
    rows.push({ id, rule, ok: failure === null, ...(failure === null ? {} : { evidence: failure }), ...(note ? { note } : {}) });

  try {
    await options.onReady?.({ url: running.url, accessToken });
    // the proxy answers at all
    const deadline = Date.now() + (options.waitMs ?? 60_000);
    for (;;) {
      try {
        await send({ method: 'GET', path: '/' });
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`the proxy at ${base.href} did not answer`);
        await wait(250);
      }
    }

    // 1. every session operation passes, both locales
    {
      const smart = ['40504040001', '30303039914', '61101019999'];
      const mobile: [string, string][] = [['+37200000766', '60001019906'], ['+37060000666', '50001018865'], ['+37268000769', '60001017869']];
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
          const person = mobileChannel ? { phone, code: mcode } : { code: smart[n % smart.length]!, country: 'LT' };
          const body = kind === 'login' ? person : kind === 'sign' ? { ...person, type: 'pdf', pdf } : { ...person, hash, hash_algorithm: 'SHA256', country: mobileChannel ? 'EE' : 'LT' };
          if (kind === 'hash' && mobileChannel) Object.assign(body, { country: phone.startsWith('+370') ? 'LT' : 'EE' });
          const jar = new Jar();
          const mark = probe.reached.length;
          const started = await post(`${locale}${startPath}`, body, jar);
          if (!reachedSince(mark).some((r) => r.path === `${locale}${startPath}`) || started.json?.['status'] !== 'ok') {
            failure ??= show(`POST ${locale}${startPath}`, started);
            continue;
          }
          const token = String(started.json['token']);
          const polled = probe.reached.length;
          const poll = await post(`${locale}${statusPath}${token}.json`, {}, jar);
          if (!reachedSince(polled).some((r) => r.path === `${locale}${statusPath}${token}.json`)) failure ??= show(`POST ${locale}${statusPath}<token>.json`, poll);
          if (removal) {
            const before = probe.reached.length;
            const removed = await send({ method: 'DELETE', path: `${locale}${removal}${token}`, body: '{}', jar });
            if (!reachedSince(before).some((r) => r.path === `${locale}${removal}${token}`) || removed.json?.['status'] !== 'ok') failure ??= show(`DELETE ${locale}${removal}<token>`, removed);
          }
        }
      }
      row('allow-list-pass', 'every session operation passes in both locales (starts, statuses, removal)', failure);
    }

    // 2. tricks never reach the service
    {
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
      for (const path of ['/', '/api', '/api/document', '/api/document/generate-temporary-signing-link.json/x', `/en/api/document/${ID}/signers.json`, `/api/document/${ID}/signers.json/../../upload.json`]) tricks.push(['POST', path]);
      for (let i = 0; i < 120; i++) tricks.push(['POST', `/smartid/status/${'a'.repeat(i % 3 === 0 ? 129 : 1)}${['..', '.', '%2f', '%2e', '~', '$', '@', ' '][i % 8]}${i}.json`]);
      let failure: string | null = null;
      for (const [method, path] of tricks) {
        const mark = probe.reached.length;
        const answer = await send({ method, path, body: method === 'GET' || method === 'HEAD' ? undefined : '{}', jar: new Jar() }).catch((error: Error) => ({ status: 400, text: error.message, headers: {}, json: null }) as Answer);
        const reached = reachedSince(mark);
        // a framework may resolve dot segments first (fetch-style handlers only see the resolved URL):
        // the resolved path reaching the service as an operation of its own is no bypass
        const resolved = new URL(path.replace(/\\/g, '/'), 'http://x').pathname;
        const resolvedOnly = resolved !== path && /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path) && reached.every((r) => r.path === resolved && findRoute(r.method, r.path) !== null);
        if (reached.length > 0 ? !resolvedOnly : answer.status < 400) failure ??= `${show(`${method} ${path}`, answer)} (reached the service${reached.length ? ` as ${reached.map((r) => `${r.method} ${r.path}`).join(', ')}` : ': no'})`;
      }
      row('allow-list-refuse', `${tricks.length} path, method, encoding and query tricks are refused and never reach the service`, failure);
    }

    // 3. browser-sent tokens and unknown fields are not forwarded
    {
      const mark = probe.reached.length;
      const body = {
        code: madeUpPersonalCode(1),
        country: 'LT',
        access_token: 'from-the-browser',
        ACCESS_TOKEN: 'x',
        accessToken: 'x',
        'access-token': 'x',
        'access_token ': 'x',
        probe_unknown_field: 'x',
        token: ID,
      };
      const answer = await post('/smartid/login.json', body);
      const reached = reachedSince(mark)[0];
      let failure: string | null = null;
      if (!reached) failure = show('POST /smartid/login.json with extra fields', answer) + ' (nothing reached the service)';
      else {
        const sent = JSON.parse(reached.body) as Record<string, unknown>;
        const extra = Object.keys(sent).filter((key) => !['code', 'country', 'access_token'].includes(key));
        const tokens = (reached.body.match(/"access_token"/g) ?? []).length;
        if (extra.length || sent['access_token'] !== accessToken || tokens !== 1) failure = `the service received ${reached.body.slice(0, 300)}`;
      }
      row('fields', 'only the operation\'s own fields go up: browser-sent token fields and unknown fields are dropped', failure);
    }

    // 4. JSON only
    {
      let failure: string | null = null;
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', null]) {
        const mark = probe.reached.length;
        const answer = await send({ method: 'POST', path: '/smartid/login.json', body: JSON.stringify({ code: '30303039914', country: 'LT' }), contentType: type, jar: new Jar() });
        if (answer.status !== 415 || reachedSince(mark).length) failure ??= show(`POST /smartid/login.json as ${type ?? 'no content type'}`, answer);
      }
      row('json-only', 'a body that is not application/json gets 415 and is not forwarded', failure);
    }

    // 4b. real form bodies, whatever parser a framework runs first
    {
      let failure: string | null = null;
      const forms: [string, string][] = [
        ['application/x-www-form-urlencoded', 'code=30303039914&country=LT'],
        ['application/x-www-form-urlencoded', 'person[code]=30303039914&person[country]=LT&code=30303039914&country=LT'],
        ['multipart/form-data; boundary=probe', '--probe\r\nContent-Disposition: form-data; name="code"\r\n\r\n30303039914\r\n--probe\r\nContent-Disposition: form-data; name="country"\r\n\r\nLT\r\n--probe--\r\n'],
        ['text/plain', 'code=30303039914'],
      ];
      for (const [type, body] of forms) {
        const mark = probe.reached.length;
        const answer = await send({ method: 'POST', path: '/smartid/login.json', body, contentType: type, jar: new Jar() });
        if (answer.status !== 415 || reachedSince(mark).length) failure ??= show(`POST /smartid/login.json as ${type}: ${body.slice(0, 40)}`, answer);
      }
      row('form-bodies', 'form-encoded, nested-form, multipart and text bodies get 415 and are not forwarded', failure);
    }

    // 4c. start fields of a shape the service never takes: refused before they are counted or forwarded
    {
      let failure: string | null = null;
      const bad: object[] = [
        { code: '4'.repeat(8 * 1024), country: 'LT' },
        { code: 'x'.repeat(200), country: 'LT' },
        { code: "40504040001' OR '1'='1", country: 'LT' },
        { code: '4050404000', country: 'LT' },
        { code: '40504040001', country: 'L'.repeat(4096) },
      ];
      const badMobile: object[] = [
        { phone: `+370${'6'.repeat(4096)}`, code: '50001018865' },
        { phone: '+3706000066612345678', code: '50001018865' },
        { phone: '+37060000666', code: '5'.repeat(4096) },
      ];
      for (const [path, body] of [...bad.map((b) => ['/smartid/login.json', b] as const), ...badMobile.map((b) => ['/mobile/login.json', b] as const)]) {
        const mark = probe.reached.length;
        const answer = await post(path, body);
        if (answer.status !== 400 && answer.status !== 413) failure ??= show(`POST ${path} with ${JSON.stringify(body).slice(0, 60)}…`, answer);
        else if (reachedSince(mark).length) failure ??= `${show(`POST ${path}`, answer)} (reached the service)`;
      }
      row('field-shapes', 'start fields of a length or characters the service never takes (personal code, phone, country) get 400 and are not forwarded', failure);
    }

    // 5. cross-site
    {
      let failure: string | null = null;
      const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
      for (const headers of foreign) {
        const mark = probe.reached.length;
        const answer = await post('/smartid/login.json', { code: '30303039914', country: 'LT' }, new Jar(), { headers });
        if (answer.status !== 403 || reachedSince(mark).length) failure ??= show(`POST /smartid/login.json with ${JSON.stringify(headers)}`, answer);
      }
      row('cross-site', 'requests from another site (Origin, Sec-Fetch-Site) get 403 and are not forwarded', failure);
    }

    // 5b. the same host name over plain http is another origin (a page anything on the network can write)
    {
      let failure: string | null = null;
      const host = `probe-host.test${base.port ? `:${base.port}` : ''}`;
      let mark = probe.reached.length;
      const plain = await post('/smartid/login.json', { code: madeUpPersonalCode(20), country: 'LT' }, new Jar(), { headers: { host, origin: `http://${host}` } });
      if (plain.status !== 403 || reachedSince(mark).length) failure = `${show(`POST /smartid/login.json with Host ${host} and Origin http://${host}`, plain)}`;
      mark = probe.reached.length;
      const secure = await post('/smartid/login.json', { code: madeUpPersonalCode(21), country: 'LT' }, new Jar(), { headers: { host, origin: `https://${host}` } });
      if (!reachedSince(mark).length) failure ??= `${show(`POST /smartid/login.json with Host ${host} and Origin https://${host}`, secure)} (the page's own https origin was refused)`;
      row('scheme', 'an http:// page of the proxy\'s own host name gets 403 (pages are served over https); its https:// page passes', failure);
    }

    // 6. visitor binding
    {
      let failure: string | null = null;
      const owner = new Jar();
      const start = await post('/mobile/login.json', { phone: '+37060000666', code: '50001018865' }, owner);
      const token = String(start.json?.['token'] ?? '');
      if (start.json?.['status'] !== 'ok') failure = show('POST /mobile/login.json', start);
      else {
        let mark = probe.reached.length;
        const foreign = await post(`/mobile/status/${token}.json`, {}, new Jar());
        if (reachedSince(mark).length || foreign.json?.['error_code'] !== 40402) failure ??= show('another visitor: POST /mobile/status/<token>.json', foreign);
        mark = probe.reached.length;
        const foreignRemoval = await send({ method: 'DELETE', path: `/api/mobile/session/${token}`, body: '{}', jar: new Jar() });
        if (reachedSince(mark).length) failure ??= show('another visitor: DELETE /api/mobile/session/<token>', foreignRemoval);
        mark = probe.reached.length;
        const own = await post(`/mobile/status/${token}.json`, {}, owner);
        if (!reachedSince(mark).length) failure ??= show('the same visitor: POST /mobile/status/<token>.json', own);
      }
      row('visitor-binding', 'one visitor\'s session token is refused for another (40402), and not forwarded', failure);
    }

    // 7. screening
    {
      let failure: string | null = null;
      const jar = new Jar();
      const start = await post('/mobile/login.json', { phone: '+37060000708', code: '39001010708', peps: true }, jar);
      let done: Answer | null = null;
      for (let i = 0; i < 40 && start.json?.['status'] === 'ok'; i++) {
        await wait(100);
        done = await post(`/mobile/status/${String(start.json['token'])}.json`, {}, jar);
        if (done.json?.['status'] !== 'waiting') break;
      }
      if (!done || done.json?.['status'] !== 'ok') failure = show('a PEP person\'s login', done ?? start);
      else if (options.exposesScreening && !Array.isArray(done.json['peps_data'])) failure = `${show('POST /mobile/status/<token>.json', done)} (the proxy says it exposes screening)`;
      else if (!options.exposesScreening && ('peps_data' in done.json || 'sanctions_data' in done.json)) failure = show('POST /mobile/status/<token>.json', done);
      row('screening', options.exposesScreening ? 'screening data reaches the browser (the proxy exposes it)' : 'PEP and sanctions data stay on the server', failure);
    }

    // 8. the token in no answer, however the service side sends it
    {
      const modes = [
        ['echo-plain', 'echoed plainly'],
        ['echo-escaped', 'echoed with JSON escapes, in a value and a key'],
        ['token-header', 'in response headers'],
        ['redirect', 'a redirect to elsewhere (not followed)'],
      ] as const;
      for (const [i, [mode, words]] of modes.entries()) {
        probe.answerHostile(mode);
        const trapped = probe.trapped;
        const mark = probe.reached.length;
        const answer = await post('/smartid/login.json', { code: madeUpPersonalCode(10 + i), country: 'LT' });
        probe.answerNormally();
        const visible = `${answer.text}${JSON.stringify(answer.headers)}${answer.json ? JSON.stringify(answer.json) : ''}`;
        let failure: string | null = null;
        if (!reachedSince(mark).some((r) => r.path === '/smartid/login.json')) failure = `${show('POST /smartid/login.json', answer)} (the start did not reach the service, so this could not be checked)`;
        else if (visible.includes(accessToken)) failure = `${show('POST /smartid/login.json', answer)} (the answer holds the token)`;
        else if (mode === 'redirect' && (probe.trapped > trapped || answer.status < 400)) failure = `${show('POST /smartid/login.json', answer)} (the redirect was followed or passed on)`;
        row(mode.startsWith('token-') ? mode : `token-${mode}`, `the token stays out of the answer when the service side sends it ${words}`, failure);
      }
    }

    // 9. bodies over the limit are refused without reading them to the end
    {
      const mark = probe.reached.length;
      const result = await new Promise<{ status: number; sent: number }>((resolve) => {
        const target = new URL(base.href);
        const total = 1024 ** 3;
        const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
        let sent = 0;
        let status = 0;
        let settled = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          req.destroy();
          resolve({ status, sent });
        };
        const req = send({
          hostname: target.hostname,
          port: target.port,
          method: 'POST',
          path: `${target.pathname.replace(/\/+$/, '')}/smartid/login.json`,
          headers: { 'content-type': 'application/json', 'content-length': total },
        });
        req.on('response', (res) => {
          status = res.statusCode ?? 0;
          res.resume();
          res.on('end', finish);
        });
        req.on('error', finish);
        req.on('close', finish);
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        const pump = () => {
          while (!settled && sent < total) {
            sent += chunk.length;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
        };
        setTimeout(finish, 30_000);
        pump();
      });
      const early = result.sent < 256 * 1024 * 1024 && reachedSince(mark).length === 0;
      // a proxy that answers 413 and closes may reset the connection before the client reads the answer
      const failure =
        early && (result.status === 413 || result.status === 0)
          ? null
          : `POST /smartid/login.json declaring 1 GiB → ${result.status || 'no answer'} after ${Math.round(result.sent / 1024 / 1024)} MB were sent`;
      row(
        'body-limit',
        'a body over the limit is refused (413) before it is read to the end',
        failure,
        failure === null && result.status === 0 ? `the connection was closed after ${Math.round(result.sent / 1024 / 1024)} MB, before the answer could be read` : undefined,
      );
    }

    // 10. rate limit (last: it leaves the person limited)
    {
      let failure: string | null = 'no 429 came';
      for (let i = 0; i < LIMIT_ATTEMPTS; i++) {
        const answer = await post('/smartid/login.json', { code: '40504040001', country: 'EE' });
        if (answer.status === 429) {
          const retry = Number(answer.headers['retry-after']);
          failure = Number.isFinite(retry) && retry > 0 ? null : show('POST /smartid/login.json (429 without Retry-After)', answer);
          break;
        }
        if (answer.json?.['status'] !== 'ok') {
          failure = show('POST /smartid/login.json', answer);
          break;
        }
      }
      row('rate-limit', `session starts for one person are limited: 429 with Retry-After within ${LIMIT_ATTEMPTS} starts`, failure);
    }

    // and over everything this run received: the token was in no answer
    const leaked = answers.find(({ answer }) => `${answer.text}${JSON.stringify(answer.headers)}`.includes(accessToken));
    row('token-never', `the token is in none of the ${answers.length} answers of this run`, leaked ? show(leaked.where, leaked.answer) : null);
    return { rows, sandbox: running.url, accessToken };
  } finally {
    await running.close();
  }
}

export function checkTable(rows: CheckRow[]): string {
  const lines = ['| rule | result |', '|---|---|'];
  for (const row of rows) lines.push(`| ${row.rule} | ${row.ok ? 'pass' : `FAIL: ${row.evidence?.replace(/\|/g, '\\|').replace(/\n/g, ' ')}`} |`);
  const failed = rows.filter((row) => !row.ok).length;
  lines.push('', `${rows.length - failed} passed, ${failed} failed`);
  return lines.join('\n');
}
