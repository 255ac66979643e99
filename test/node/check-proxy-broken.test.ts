import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CheckRow } from 'esign-sandbox';
import { freePort, scratchDir } from './processes.js';
import type { ProxyOptions } from '../../src/proxy/index.js';
import { ALL_ROWS, check, eventsFile, failing, nodeProxy, withBody } from './check-proxy-setups.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { proxyEventSchema } from '../../src/proxy/event-schema.js';

// `esign-sandbox check-proxy` against proxies broken one rule at a time (each fails exactly its rows),
// and the command as CI runs it.

/** Writes the proxy's answer through a filter of its text (and headers). */
function filterAnswer(res: ServerResponse, change: (text: string) => string, headers: Record<string, string> = {}): void {
  const end = res.end.bind(res);
  const writeHead = res.writeHead.bind(res);
  let pending: [number, Record<string, string | number>] | null = null;
  res.writeHead = ((status: number, h: Record<string, string | number>) => {
    pending = [status, { ...h, ...headers }];
    return res;
  }) as typeof res.writeHead;
  res.end = ((body: Buffer | string, callback?: () => void) => {
    const text = change(Buffer.isBuffer(body) ? body.toString('utf8') : String(body ?? ''));
    const [status, h] = pending ?? [200, {}];
    writeHead(status, { ...h, 'content-length': Buffer.byteLength(text) });
    return end(text, callback);
  }) as typeof res.end;
}

describe('the check-proxy command', () => {
  it('prints JSON for CI and exits 0 when every rule passes, 1 when one fails', async () => {
    const run = async (options: Partial<ProxyOptions>) => {
      const port = await freePort();
      const token = `cli-${port}-secret`;
      const url = await nodeProxy(port, token, options);
      const child = spawn(process.execPath, ['sandbox/bin/esign-sandbox.js', 'check-proxy', url, '--port', String(port), '--access-token', token, '--json'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const [code] = (await once(child, 'exit')) as [number];
      return { code, result: JSON.parse(stdout) as { passed: boolean; rows: CheckRow[] } };
    };
    const good = await run({});
    assert.equal(good.code, 0);
    assert.equal(good.result.passed, true);
    assert.equal(good.result.rows.length, ALL_ROWS.length);
    const bad = await run({ rateLimit: false });
    assert.equal(bad.code, 1);
    assert.deepEqual(failing(bad.result.rows), ['limits-exact', 'rate-limit']);
  });
});

/** Smart-ID starts per code, by the check's token (one proxy each): for the proxy that counts a code without its country. */
const smartCount = new Map<string, number>();

// each broken proxy is its own server with its own token and sandbox: several checked at once
describe('check-proxy against proxies with one rule broken', { concurrency: 3 }, () => {
  const cases: [string, string[], (port: number, token: string) => Promise<string>][] = [
    [
      'an operation of the /en locale refused',
      ['allow-list-pass'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          if (req.url?.startsWith('/esign/en/mobile/sign.json'))
            res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"error","message":"no"}');
          else proxy(req, res);
        }),
    ],
    [
      'queries stripped and passed instead of refused',
      ['allow-list-refuse'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          req.url = req.url?.replace(/\?.*$/, '');
          proxy(req, res);
        }),
    ],
    [
      'extra fields forwarded',
      ['fields'],
      (port, token) =>
        nodeProxy(port, token, {
          fetch: (input, init) => fetch(input, { ...init, body: JSON.stringify({ ...JSON.parse(String(init?.body)), accessToken: 'from-the-browser' }) }),
        }),
    ],
    [
      'any content type accepted',
      ['json-only', 'form-bodies'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          req.headers['content-type'] = 'application/json';
          proxy(req, res);
        }),
    ],
    [
      'no origin check',
      ['cross-site', 'scheme'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          delete req.headers['origin'];
          delete req.headers['sec-fetch-site'];
          proxy(req, res);
        }),
    ],
    [
      "the scheme of the page's origin ignored",
      ['scheme'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          req.headers['origin'] = req.headers['origin']?.replace(/^http:/, 'https:');
          proxy(req, res);
        }),
    ],
    [
      'start fields of any shape made acceptable instead of refused',
      ['field-shapes'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          if (Number(req.headers['content-length'] ?? 0) > 1024 * 1024) return proxy(req, res);
          const chunks: Buffer[] = [];
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: Record<string, unknown> | string = text;
            try {
              const parsed = JSON.parse(text) as Record<string, unknown>;
              if (String(parsed['code'] ?? '').length > 11) parsed['code'] = '30303039914';
              if (String(parsed['country'] ?? '').length > 2) parsed['country'] = 'LT';
              if (String(parsed['phone'] ?? '').length > 12) parsed['phone'] = '+37060000666';
              body = parsed;
            } catch {
              // not JSON: passed on as text, for the proxy's own answer
            }
            (req as IncomingMessage & { body?: unknown }).body = body;
            proxy(req, res);
          });
        }),
    ],
    // (without a limit per visitor, the limits' numbers fail too)
    [
      'every visitor the same',
      ['visitor-binding', 'limits-exact'],
      (port, token) => nodeProxy(port, token, { visitor: () => 'everyone', rateLimit: { perVisitor: false } }),
    ],
    ['screening passed on', ['screening'], (port, token) => nodeProxy(port, token, { exposeScreening: true })],
    [
      'no redaction',
      ['token-echo-plain', 'token-echo-escaped', 'token-never'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          filterAnswer(res, (text) => text.split('[redacted]').join(token));
          proxy(req, res);
        }),
    ],
    [
      "the service's headers passed on",
      ['token-header', 'token-never'],
      (port, token) => {
        let last: Headers | null = null;
        return nodeProxy(
          port,
          token,
          {
            fetch: async (input, init) => {
              const response = await fetch(input, init);
              last = response.headers;
              return response;
            },
          },
          (req, res, proxy) => {
            const writeHead = res.writeHead.bind(res);
            res.writeHead = ((status: number, headers: Record<string, string | number>) => {
              const leaked = last?.get('x-access-token');
              return writeHead(status, leaked ? { ...headers, 'x-access-token': leaked } : headers);
            }) as typeof res.writeHead;
            proxy(req, res);
          },
        );
      },
    ],
    [
      'redirects followed',
      ['token-redirect'],
      (port, token) => nodeProxy(port, token, { fetch: (input, init) => fetch(input, { ...init, redirect: 'follow' }) }),
    ],
    [
      'a refused body read to the end',
      ['body-limit'],
      (port, token) =>
        nodeProxy(port, token, {}, (req, res, proxy) => {
          if (Number(req.headers['content-length']) > 1024 * 1024) {
            req.resume();
            req.on('end', () => res.writeHead(413, { 'content-type': 'application/json' }).end('{"status":"error","message":"too large"}'));
          } else proxy(req, res);
        }),
    ],
    ['no rate limits', ['rate-limit', 'limits-exact'], (port, token) => nodeProxy(port, token, { rateLimit: false })],
    [
      'Mobile-ID starts counted by the personal code alone',
      ['no-lockout'],
      (port, token) => {
        const byCode = new Map<string, number>();
        return nodeProxy(port, token, {}, (req, res, proxy) => {
          if (!/\/mobile\/(?:login|sign)/.test(req.url ?? '')) return proxy(req, res);
          const chunks: Buffer[] = [];
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let code = '';
            try {
              code = String((JSON.parse(text) as Record<string, unknown>)['code'] ?? '');
            } catch {
              // not JSON: the proxy's own answer
            }
            const count = (byCode.get(code) ?? 0) + 1;
            byCode.set(code, count);
            if (code && count > 6)
              return res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '600' }).end('{"status":"error","proxy_error":"rate-limited"}');
            (req as IncomingMessage & { body?: unknown }).body = text;
            proxy(req, res);
          });
        });
      },
    ],
  ];
  cases.push([
    "a person's window of one minute instead of ten",
    ['limits-exact'],
    (port, token) => nodeProxy(port, token, { rateLimit: { perPerson: { limit: 6, windowMs: 60_000 } } }),
  ]);
  cases.push([
    'twenty starts per visitor instead of twelve',
    ['limits-exact'],
    (port, token) => nodeProxy(port, token, { rateLimit: { perVisitor: { limit: 20, windowMs: 600_000 } } }),
  ]);
  cases.push(['no poll floor', ['poll-floor'], (port, token) => nodeProxy(port, token, { minPollIntervalMs: 0 })]);
  cases.push([
    "a browser's request id taken whatever it holds",
    ['request-id'],
    (port, token) =>
      nodeProxy(port, token, {}, (req, res, proxy) => {
        const given = req.headers['x-request-id'];
        if (typeof given === 'string') {
          const writeHead = res.writeHead.bind(res);
          res.writeHead = ((status: number, headers: Record<string, string | number>) =>
            writeHead(status, { ...headers, 'x-request-id': given })) as typeof res.writeHead;
        }
        proxy(req, res);
      }),
  ]);
  cases.push(['64 KB for bodies without files', ['small-bodies'], (port, token) => nodeProxy(port, token, { sessionBodyLimit: 64 * 1024 })]);
  cases.push([
    'Smart-ID starts counted by the personal code alone, whatever the country',
    ['no-lockout-country'],
    (port, token) =>
      nodeProxy(
        port,
        token,
        {},
        withBody((body, req, res, pass) => {
          if (!req.url?.includes('/smartid/login.json') || body['code'] !== '40504040001') return pass();
          smartCount.set(token, (smartCount.get(token) ?? 0) + 1);
          if (smartCount.get(token)! > 6)
            return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '600' }).end('{"status":"error","proxy_error":"rate-limited"}');
          pass();
        }),
      ),
  ]);
  for (const [broken, rows, start] of cases) {
    it(`${broken}: fails ${rows.join(', ')} and nothing else`, async () => {
      const result = await check(start);
      assert.deepEqual(failing(result).sort(), [...rows].sort(), JSON.stringify(result.filter((r) => !r.ok).map((r) => [r.id, r.evidence])));
      for (const row of result.filter((r) => !r.ok)) assert.ok(row.evidence && row.evidence.length > 10, `${row.id} says what showed it`);
    });
  }
});

// the events row reads what the proxy wrote: a proxy whose events break the checklist fails it
// alone, and the package's schema refuses the same events (the two readings agree)
describe('check-proxy against a proxy whose events break the checklist', { concurrency: 2 }, () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(proxyEventSchema());
  const cases: [string, (event: Record<string, unknown>) => Record<string, unknown>][] = [
    ["a person's code in clear", (event) => (event['type'] === 'started' ? { ...event, person: { code: '40504040001' } } : event)],
    ['a field renamed', ({ requestId, ...event }) => ({ ...event, request_id: requestId })],
  ];
  for (const [broken, change] of cases) {
    it(`${broken}: fails events and nothing else, and the package's schema refuses those events too`, async () => {
      const written = eventsFile(change);
      const rows = await check((port, token) => nodeProxy(port, token, { onEvent: written.onEvent }), false, undefined, undefined, written.file);
      assert.deepEqual(failing(rows), ['events'], JSON.stringify(rows.filter((r) => !r.ok).map((r) => [r.id, r.evidence])));
      const evidence = rows.find((row) => row.id === 'events')?.evidence ?? '';
      assert.doesNotMatch(evidence, /40504040001/, 'the evidence shows no code in clear');
      const lines = readFileSync(written.file, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown);
      assert.ok(
        lines.some((event) => !validate(event)),
        'the schema refuses one of them',
      );
    });
  }
});

// the state-at-rest row reads the file a proxy keeps its state in: one that keeps what the browser
// sent in clear fails it, and so does one any account can read; each alone
describe('check-proxy against a proxy whose state file gives something away', { concurrency: 2 }, () => {
  const cases: [string, number, RegExp][] = [
    ['the bodies kept in clear', 0o600, /holds a (personal code|phone number) of this run in clear/],
    ['the file open to every account', 0o644, /is open to other accounts \(mode 644/],
  ];
  for (const [broken, mode, evidence] of cases) {
    it(`${broken}: fails state-at-rest and nothing else`, async () => {
      const stateFile = join(scratchDir('esign-state-'), 'state.log');
      writeFileSync(stateFile, '', { mode });
      chmodSync(stateFile, mode);
      const rows = await check(
        (port, token) =>
          nodeProxy(
            port,
            token,
            {},
            withBody((body, _req, _res, pass) => {
              // what a careless proxy keeps: the start's fields as they came, or only that a request came
              appendFileSync(stateFile, mode === 0o600 ? `${JSON.stringify(body)}\n` : '.');
              pass();
            }),
          ),
        false,
        undefined,
        undefined,
        undefined,
        { stateFile },
      );
      assert.deepEqual(failing(rows), ['state-at-rest'], JSON.stringify(rows.filter((r) => !r.ok).map((r) => [r.id, r.evidence])));
      const said = rows.find((row) => row.id === 'state-at-rest')?.evidence ?? '';
      assert.match(said, evidence);
      assert.doesNotMatch(said, /\d{11}|\+37/, 'the evidence names no code or phone');
    });
  }
});
