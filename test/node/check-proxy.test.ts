import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GATE_PERSON } from './signing-impostor.js';
import { createFetchProxyHandler, fetchHandlerToNode, type ProxyEvent } from '../../src/proxy/index.js';
import { RedisStore } from '../../src/proxy/redis.js';
import { createClient } from 'redis';
import { startRedis } from './redis-server.js';
import { assertProxyEvents } from './proxy-event-schema.js';
import { ALL_ROWS, check, eventsFile, failing, nodeProxy, reportingHook, servers, skipped, withBody } from './check-proxy-setups.js';

// `esign-sandbox check-proxy` against our Node proxy (both handlers, Redis, a signing gate), and
// proxies of ours broken in what only a working setup shows.

describe('check-proxy against working proxies', () => {
  it('passes our Node proxy (node:http handler) on every row, and says which rows it could not check', async () => {
    const events: ProxyEvent[] = [];
    const written = eventsFile();
    const rows = await check(
      (port, token) =>
        nodeProxy(port, token, {
          onEvent: (event) => {
            events.push(event);
            written.onEvent(event);
          },
        }),
      false,
      undefined,
      undefined,
      written.file,
    );
    assert.deepEqual(
      rows.map((row) => row.id),
      ALL_ROWS,
    );
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.deepEqual(
      skipped(rows),
      ['signer-gate', 'signer-country', 'upstream-timeout', 'result-first', 'site-refused', 'slow-hook', 'fail-closed', 'state-at-rest'],
      'nothing told, nothing checked: skipped, never passed',
    );
    // the events the Python and PHP proxies are held to, by the same schema
    assertProxyEvents(events, 'the Node proxy', ['started', 'finished', 'refused', 'failed']);
    // docs/proxy-checklist.md shows this run's table as a reader gets it without --events: its rows, its numbers aside
    const page = readFileSync('docs/proxy-checklist.md', 'utf8');
    const table = /```\n(\| rule \| result \|[\s\S]*?)```/.exec(page)?.[1] ?? '';
    const numbersAside = (text: string) => text.replace(/\d+/g, 'N');
    const shown = table
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| rule |'))
      .map((line) => line.slice(2, line.indexOf(' | ', 2)));
    assert.deepEqual(
      shown.map(numbersAside),
      rows.map((row) => numbersAside(row.rule)),
    );
    const withoutEvents = rows.map((row) => (row.id === 'events' ? { ...row, skipped: 'no --events' } : row));
    assert.match(
      table,
      new RegExp(
        `\\n${withoutEvents.filter((row) => row.ok && !row.skipped).length} passed, 0 failed, ${withoutEvents.filter((row) => row.skipped).length} skipped\\n`,
      ),
    );
  });

  it('passes our Node proxy with a Redis store, a slow, reporting result hook and a short service time limit on every row, the state taken away and given back', async () => {
    const redis = await startRedis();
    const client = createClient({ socket: { path: redis.socket, tls: false } });
    await client.connect();
    try {
      const pid = redis.pid()!;
      const rows = await check(
        (port, token) => nodeProxy(port, token, { store: new RedisStore(client), onResult: reportingHook(port), upstreamTimeout: 2_000 }),
        false,
        undefined,
        { stopState: `kill -STOP ${pid}`, startState: `kill -CONT ${pid}` },
        undefined,
        { upstreamTimeoutMs: 2_000 },
      );
      assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
      assert.deepEqual(skipped(rows), ['signer-gate', 'signer-country', 'events', 'state-at-rest']);
    } finally {
      await client.quit().catch(() => undefined);
      await redis.stop();
    }
  });

  it('passes our fetch-style handler served through fetchHandlerToNode', async () => {
    const rows = await check(async (port, token) => {
      const handler = createFetchProxyHandler({ baseUrl: `http://127.0.0.1:${port}`, accessToken: token, prefix: '/esign' });
      const server = createServer(fetchHandlerToNode(handler));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/esign`;
    });
    assert.deepEqual(failing(rows), [], JSON.stringify(rows.filter((r) => !r.ok)));
  });

  it('passes a proxy with a signing gate on every row when told its person (--signer), and only then', async () => {
    const gated = (port: number, token: string) => nodeProxy(port, token, { signer: () => GATE_PERSON });
    assert.deepEqual(failing(await check(gated, false, GATE_PERSON)), []);
    const untold = await check(gated);
    assert.deepEqual(failing(untold), ['allow-list-pass'], "the gate refuses the checks' own signing for other people");
    assert.match(untold.find((row) => row.id === 'signer-gate')!.rule, /not checked/);
    assert.match(untold.find((row) => row.id === 'signer-country')!.rule, /not checked/);
    const ungated = await check((port, token) => nodeProxy(port, token), false, GATE_PERSON);
    assert.deepEqual(failing(ungated), ['signer-gate', 'signer-country']);
    assert.match(ungated.find((row) => row.id === 'signer-gate')!.evidence ?? '', /another person/);
  });

  it('fails a proxy whose result hook leaves its work running after it returned on the result-first row, and nothing else', async () => {
    const rows = await check((port, token) =>
      nodeProxy(port, token, {
        onResult: (result) => {
          // the host's work goes on in the background: the browser is told before it is done
          reportingHook(port)(result).catch(() => undefined);
        },
      }),
    );
    // nor can it refuse a result: its hook's answer comes after the browser was told
    assert.deepEqual(failing(rows), ['result-first', 'site-refused'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.match(
      rows.find((row) => row.id === 'result-first')!.evidence ?? '',
      /before the result hook ended/,
      JSON.stringify(rows.find((row) => row.id === 'result-first')),
    );
  });

  it('fails a proxy that goes on without its state on the fail-closed row, and nothing else', async () => {
    // the state taken away is one the proxy does not use: it keeps answering as if nothing happened
    const redis = await startRedis();
    try {
      const pid = redis.pid()!;
      const rows = await check((port, token) => nodeProxy(port, token), false, undefined, { stopState: `kill -STOP ${pid}`, startState: `kill -CONT ${pid}` });
      assert.deepEqual(failing(rows), ['fail-closed'], JSON.stringify(rows.filter((r) => !r.ok)));
    } finally {
      await redis.stop();
    }
  });

  it('fails a signing gate that compares the digits alone on its country row, and nothing else', async () => {
    const digitsOnly = (port: number, token: string) =>
      nodeProxy(
        port,
        token,
        { signer: () => GATE_PERSON },
        withBody((body, req, res, pass) => {
          // the gate sees the signer's own country and phone whenever the digits are theirs
          if (!/\/sign/.test(req.url ?? '') || body['code'] !== GATE_PERSON.code) return pass();
          pass({ ...body, ...('country' in body ? { country: GATE_PERSON.country } : {}), ...('phone' in body ? { phone: GATE_PERSON.phone } : {}) });
        }),
      );
    const rows = await check(digitsOnly, false, GATE_PERSON);
    assert.deepEqual(failing(rows), ['signer-country'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.match(rows.find((row) => row.id === 'signer-country')!.evidence ?? '', /the signer's digits, EE/);
  });

  it('fails a proxy that waits for the service longer than it was said to on the upstream-timeout row, and nothing else', async () => {
    const rows = await check((port, token) => nodeProxy(port, token, { upstreamTimeout: 20_000 }), false, undefined, undefined, undefined, {
      upstreamTimeoutMs: 1_000,
    });
    assert.deepEqual(failing(rows), ['upstream-timeout'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.match(rows.find((row) => row.id === 'upstream-timeout')!.evidence ?? '', /held the browser past its time limit/);
  });

  it('fails a proxy whose host drops its result work when the browser gives up on the poll on the slow-hook row, and nothing else', async () => {
    // the host's hook throws (once) when the poll that ran it has lost its browser: the next poll runs it again
    const gone = new Set<string>();
    const dropped = new Set<string>();
    const rows = await check((port, token) =>
      nodeProxy(
        port,
        token,
        {
          onResult: async (result) => {
            await reportingHook(port)(result);
            if (gone.has(result.token) && !dropped.has(result.token)) {
              dropped.add(result.token);
              throw new Error('the browser went: the host drops its work');
            }
          },
        },
        (req, res, proxy) => {
          const session = /\/status\/([^/]+)\.json/.exec(req.url ?? '')?.[1];
          if (session) res.on('close', () => !res.writableFinished && gone.add(session));
          proxy(req, res);
        },
      ),
    );
    assert.deepEqual(failing(rows), ['slow-hook'], JSON.stringify(rows.filter((r) => !r.ok)));
    assert.match(rows.find((row) => row.id === 'slow-hook')!.evidence ?? '', /ran 2 times for one login/);
  });

  it('checks the exposed-screening flag both ways', async () => {
    const exposed = await check((port, token) => nodeProxy(port, token, { exposeScreening: true }), true);
    assert.deepEqual(failing(exposed), []);
    const notExposed = await check((port, token) => nodeProxy(port, token), true);
    assert.deepEqual(failing(notExposed), ['screening']);
  });
});
