import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { EsignClient } from '../../src/client/index.js';
import { EsignError } from '../../src/client/errors.js';
import { createProxyHandler, type ProxyEvent, type ProxyOptions, type ProxyResult } from '../../src/proxy/index.js';
import { MemoryStore } from '../../src/proxy/store.js';
import { RedisStore, type RedisClientLike } from '../../src/proxy/redis.js';
import { seal, tokenName } from '../../src/proxy/sealed.js';
import { RENEWED_LEASE_MS, RENEW_EVERY_MS } from '../../src/protocol/proxy-rules.js';
import { ACCESS_TOKEN, CookieJar, listen, send, serverPool, until } from './harness.js';
import { startRedis, type RedisServer } from './redis-server.js';

// The proxy's promise: no browser sees a session's verified result before onResult for that
// session has returned successfully, on one node or many. Each test drives real HTTP on loopback
// against a small service that has finished every session it started.

const serve = serverPool();
const SESSION = '0b7e6d1c-4a1f-4c0e-9a51-3f6a2d9c8e01';
const PERSON = { status: 'ok', name: 'MARY', surname: 'TESTNUMBER', code: '60001019906', country: 'EE', token: SESSION };

/** A service whose every session is finished: it counts the status polls that reached it. */
async function finishedService(): Promise<{ url: string; polls: () => number }> {
  let polls = 0;
  const url = await serve((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = req.url?.includes('/status/') ? ((polls += 1), PERSON) : { status: 'ok', token: SESSION, control_code: '4321' };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  return { url, polls: () => polls };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A door the test opens: what waits at it goes on only then (order by events, not by time). */
function gate(): { passed: Promise<void>; open: () => void } {
  let open!: () => void;
  const passed = new Promise<void>((resolve) => (open = resolve));
  return { passed, open };
}

/** A proxy in front of `baseUrl`; the poll floor off, since these tests poll at will. */
function proxy(baseUrl: string, options: Partial<ProxyOptions>): Promise<string> {
  return serve(createProxyHandler({ baseUrl, accessToken: ACCESS_TOKEN, rateLimit: false, minPollIntervalMs: 0, log: () => undefined, ...options }));
}

/** Starts the session as a new visitor; returns the visitor's poll. */
async function started(url: string): Promise<{ poll: () => Promise<{ status: number; state: string }> }> {
  const jar = new CookieJar();
  const start = await send(`${url}/smartid/login.json`, 'POST', { code: '60001019906', country: 'EE' }, false, { jar });
  assert.equal(start.json.token, SESSION);
  return {
    poll: async () => {
      const answer = await send(`${url}/smartid/status/${SESSION}.json`, 'POST', {}, false, { jar });
      return { status: answer.status, state: String(answer.json.status) };
    },
  };
}

describe('proxy: the host has the result before the browser', () => {
  it('gives a poll that overtakes a failing onResult no result: it waits, runs onResult itself, and fails too', async () => {
    const service = await finishedService();
    const journal: string[] = [];
    let fail = true;
    let door = gate();
    const url = await proxy(service.url, {
      onResult: async (result) => {
        journal.push(`run ${result.token === SESSION}`);
        await door.passed;
        if (fail) {
          journal.push('threw');
          throw new Error('database down');
        }
        journal.push('stored');
      },
    });
    const visitor = await started(url);
    const first = visitor.poll();
    await until(() => journal.length === 1, 'the first run');
    const secondPoll = visitor.poll();
    // the second poll has its answer from the service and waits for the first run's claim
    await until(() => service.polls() === 2, 'the second poll at the service');
    const firstDoor = door;
    door = gate();
    firstDoor.open();
    await until(() => journal.length === 3, 'the second run');
    door.open();
    const second = await secondPoll;
    assert.deepEqual(await first, { status: 500, state: 'error' });
    // the second poll waited for the first run, took the released claim and ran onResult again
    assert.deepEqual(second, { status: 500, state: 'error' });
    assert.deepEqual(journal, ['run true', 'threw', 'run true', 'threw']);

    fail = false;
    const third = await visitor.poll();
    journal.push(`browser ${third.state}`);
    assert.deepEqual(third, { status: 200, state: 'ok' });
    // once, ever: a later poll gets the result without another run
    assert.deepEqual(await visitor.poll(), { status: 200, state: 'ok' });
    assert.deepEqual(journal, ['run true', 'threw', 'run true', 'threw', 'run true', 'stored', 'browser ok']);
    assert.equal(service.polls(), 4);
  });

  it('answers the poll that runs a slow onResult and a poll that overtakes it "waiting" past resultWaitMs (the run goes on), and the result once it is stored', async () => {
    const service = await finishedService();
    const journal: string[] = [];
    const store = new MemoryStore();
    const ends: ProxyEvent[] = [];
    const url = await proxy(service.url, {
      store,
      onEvent: (event) => void (event.type === 'finished' && ends.push(event)),
      resultWaitMs: 100,
      onResult: async () => {
        journal.push('run');
        await door.passed;
        journal.push('stored');
      },
    });
    const door = gate();
    const visitor = await started(url);
    const first = visitor.poll().then((answer) => (journal.push(`first ${answer.state}`), answer));
    await until(() => journal.length === 1, 'the run');
    const second = await visitor.poll();
    journal.push(`second ${second.state}`);
    assert.deepEqual(second, { status: 200, state: 'waiting' });
    assert.deepEqual(await first, { status: 200, state: 'waiting' }, 'the poll that runs it does not outlast its wait either');
    door.open();
    await until(() => journal.includes('stored'), 'the run going on after its poll answered');
    assert.equal(ends.length, 0, 'no answer carried the end yet');
    assert.deepEqual(await visitor.poll(), { status: 200, state: 'ok' });
    assert.deepEqual(await visitor.poll(), { status: 200, state: 'ok' });
    assert.deepEqual(journal.filter((line) => line === 'run').length, 1, 'one run');
    // the end said once, by the first answer that carried it (after the run's own poll had answered): marked so in the store
    assert.deepEqual(
      ends.map((event) => event.type === 'finished' && event.outcome),
      ['ok'],
    );
    assert.equal(await store.get(`result:${tokenName(ACCESS_TOKEN, SESSION)}:told`), '1');
  });

  it("lets a waiting poll have the result as soon as the other request's onResult succeeded, with one run", async () => {
    const service = await finishedService();
    let runs = 0;
    const store = new MemoryStore();
    const ends: ProxyEvent[] = [];
    const url = await proxy(service.url, {
      store,
      onEvent: (event) => void (event.type === 'finished' && ends.push(event)),
      onResult: async () => {
        runs += 1;
        await door.passed;
      },
    });
    const door = gate();
    const visitor = await started(url);
    const first = visitor.poll();
    await until(() => runs === 1, 'the run');
    const others = [visitor.poll(), visitor.poll()];
    // both have the service's answer and wait for the run's claim
    await until(() => service.polls() === 3, 'the other polls at the service');
    door.open();
    const answers = await Promise.all([first, ...others]);
    assert.deepEqual(
      answers.map((a) => a.state),
      ['ok', 'ok', 'ok'],
    );
    assert.equal(runs, 1);
    // the end said once: by the run's own poll, which still waited; the result's record says so, no mark of its own
    assert.deepEqual(
      ends.map((event) => event.type === 'finished' && event.outcome),
      ['ok'],
    );
    assert.equal(await store.get(`result:${tokenName(ACCESS_TOKEN, SESSION)}:told`), null);
    assert.deepEqual(await visitor.poll(), { status: 200, state: 'ok' });
    assert.equal(ends.length, 1, 'a later poll carries the result, not the end again');
  });

  it("gives the host's cookies to the answer that ends the session and to a repeat of it, the end said once; a record of before is read as it was", async () => {
    const service = await finishedService();
    const store = new MemoryStore();
    const ends: ProxyEvent[] = [];
    let runs = 0;
    const url = await proxy(service.url, {
      store,
      onEvent: (event) => void (event.type === 'finished' && ends.push(event)),
      onResult: () => ((runs += 1), { setCookies: ['site-session=s1; Path=/; HttpOnly'] }),
    });
    const jar = new CookieJar();
    await send(`${url}/smartid/login.json`, 'POST', { code: '60001019906', country: 'EE' }, false, { jar });
    // each poll with the cookies the browser had before any answer that ended the session
    const cookie = jar.header(url);
    const poll = () => send(`${url}/smartid/status/${SESSION}.json`, 'POST', {}, false, { jar: null, headers: { cookie } });
    const cookieNames = (answer: { headers: Headers }) =>
      answer.headers
        .getSetCookie()
        .map((line) => line.split('=')[0])
        .sort();
    const first = await poll();
    assert.equal(first.json.status, 'ok');
    assert.deepEqual(cookieNames(first), ['esign-visitor', 'site-session'], "the login's new visitor id and the host's cookie");
    // the answer lost on the way: the browser, with the cookies it had, asks again and gets the same
    const again = await poll();
    assert.equal(again.json.status, 'ok');
    assert.deepEqual(cookieNames(again), cookieNames(first));
    assert.equal(runs, 1);
    assert.deepEqual(
      ends.map((event) => event.type === 'finished' && event.outcome),
      ['ok'],
    );
    // a record as a node of before wrote it (the lines alone, its end not yet said): the lines go to the browser, the end is said once
    const key = `result:${tokenName(ACCESS_TOKEN, SESSION)}`;
    await store.delete(`${key}:told`);
    await store.set(key, `done:${seal(ACCESS_TOKEN, JSON.stringify(['site-session=s0; Path=/']))}`, 60_000);
    ends.length = 0;
    const before = await poll();
    assert.deepEqual(cookieNames(before), ['site-session']);
    assert.equal((await poll()).json.status, 'ok');
    assert.deepEqual(
      ends.map((event) => event.type === 'finished' && event.outcome),
      ['ok'],
      'said by the first answer after the record, once',
    );
    assert.equal(runs, 1, 'not run again');
  });

  it('ends a hanging onResult at resultTimeoutMs: 500, its signal aborted, and the next poll runs it again', async () => {
    const service = await finishedService();
    const signals: AbortSignal[] = [];
    let hang = true;
    const logged: string[] = [];
    const url = await proxy(service.url, {
      resultTimeoutMs: 300,
      log: (line) => logged.push(line),
      onResult: (result: ProxyResult) => {
        signals.push(result.signal);
        return hang ? new Promise<void>(() => undefined) : undefined;
      },
    });
    const visitor = await started(url);
    assert.deepEqual(await visitor.poll(), { status: 500, state: 'error' });
    assert.equal(signals.length, 1);
    assert.ok(signals[0]!.aborted);
    assert.equal(logged.length, 1);
    assert.match(logged[0]!, /^\[esign-proxy\] onResult\(\) failed for smartIdLoginStatus: onResult did not finish within 300 ms \[request [0-9a-f-]{36}\]$/);
    hang = false;
    assert.deepEqual(await visitor.poll(), { status: 200, state: 'ok' });
    assert.equal(signals.length, 2);
    assert.equal(signals[1]!.aborted, false);
  });

  it("times out a document operation's onResult too, and answers 500", async () => {
    const service = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok","message":"Invited to sign","signers":[]}'));
    });
    let runs = 0;
    const url = await proxy(service, {
      operations: ['inviteSigner'],
      authorize: () => true,
      resultTimeoutMs: 200,
      onResult: () => {
        runs += 1;
        return new Promise<void>(() => undefined);
      },
    });
    const answer = await send(`${url}/api/document/${SESSION}/invite-signer.json`, 'POST', { signer: { name: 'A', surname: 'B', email: 'a@b.lt' } });
    assert.deepEqual([answer.status, answer.json.proxy_error, runs], [500, 'host-error', 1]);
  });
});

describe("proxy: the package's client behind a gateway that times out", () => {
  /** A gateway in front of the proxy that answers 504 when the proxy has not answered in 500 ms; `seen` lists what polls got. */
  async function gateway(target: string): Promise<{ url: string; seen: string[] }> {
    const seen: string[] = [];
    const url = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const poll = req.url?.includes('/status/') ?? false;
        const timer = setTimeout(() => {
          if (poll) seen.push('504');
          res.writeHead(504, { 'content-type': 'text/html' }).end('<h1>Gateway Timeout</h1>');
        }, 500);
        void fetch(`${target}${req.url}`, {
          method: req.method ?? 'POST',
          headers: { 'content-type': 'application/json', cookie: req.headers.cookie ?? '' },
          body: Buffer.concat(chunks),
        }).then(async (answer) => {
          const text = await answer.text();
          if (res.headersSent) return;
          clearTimeout(timer);
          if (poll) seen.push(String((JSON.parse(text) as { status: string }).status));
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          const cookie = answer.headers.get('set-cookie');
          if (cookie) headers['set-cookie'] = cookie;
          res.writeHead(answer.status, headers).end(text);
        });
      });
    });
    return { url, seen };
  }

  it("never ends with the result while onResult keeps failing past the gateway's time, and ends with it once a run succeeds", async () => {
    const service = await finishedService();
    const journal: string[] = [];
    let failures = 2;
    const url = await proxy(service.url, {
      onResult: async () => {
        journal.push('run');
        await sleep(1_500);
        if (failures > 0) {
          failures -= 1;
          journal.push('threw');
          throw new Error('storage timeout');
        }
        journal.push('stored');
      },
    });
    const front = await gateway(url);
    // the client keeps the visitor cookie the way a browser would: through one jar on one host
    const jar = new CookieJar();
    const client = new EsignClient({
      endpoint: front.url,
      fetch: async (input, init) => {
        const headers = new Headers(init?.headers);
        const cookie = jar.header(front.url);
        if (cookie) headers.set('cookie', cookie);
        const response = await fetch(input, { ...init, headers });
        jar.keep(front.url, response);
        return response;
      },
    });
    const start = await client.smartIdLogin({ code: '60001019906', country: 'EE' });
    assert.equal(start.token, SESSION);
    // first: onResult always failing within the client's time → never ok, a retryable failure
    failures = Number.POSITIVE_INFINITY;
    const failed = await client.waitForResult('smartid', 'login', SESSION, { interval: 100, timeLimit: 4_000 }).then(
      () => assert.fail('the client got the result although onResult never succeeded'),
      (error: unknown) => error,
    );
    assert.ok(failed instanceof EsignError);
    assert.ok(!front.seen.includes('ok'), front.seen.join(','));
    assert.ok(front.seen.includes('504'));
    assert.ok(journal.filter((step) => step === 'run').length >= 2, journal.join(','));
    assert.ok(!journal.includes('stored'));

    // then: the host recovers; the result arrives after the run that stored it
    failures = 0;
    const ok = await client.waitForResult('smartid', 'login', SESSION, { interval: 100, timeLimit: 10_000 });
    journal.push(`client ${ok.status}`);
    assert.equal(ok.status, 'ok');
    assert.equal(journal.filter((step) => step === 'stored').length, 1);
    assert.ok(journal.indexOf('stored') < journal.indexOf('client ok'));
  });
});

describe('proxy: two nodes on Redis, one of them dying during onResult', () => {
  let redis: RedisServer;
  const closers: (() => Promise<unknown>)[] = [];

  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const close of closers) await close().catch(() => undefined);
    await redis.stop();
  });

  /** Node 1 in a process of its own, so that it can really die (SIGKILL) in the middle of onResult; its onResult never returns. */
  async function dyingNode(serviceUrl: string, resultTimeoutMs: number) {
    const node = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./fixtures/redis-proxy-node.ts', import.meta.url))], {
      env: { ...process.env, REDIS_SOCKET: redis.socket, SERVICE_URL: serviceUrl, ACCESS_TOKEN, RESULT_TIMEOUT_MS: String(resultTimeoutMs) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    closers.push(async () => node.kill('SIGKILL'));
    node.stdout.setEncoding('utf8');
    let said = '';
    const hear = async (pattern: RegExp) => {
      while (!pattern.test(said))
        said += ((await Promise.race([once(node.stdout, 'data'), once(node, 'exit').then(() => assert.fail('node 1 exited'))])) as [string])[0];
      return pattern.exec(said)!;
    };
    const url = (await hear(/listening (http:\/\/\S+)/))[1]!;
    return { node, url, hear };
  }

  /** A node-redis client of the shared Redis, closed after the tests. */
  async function redisClient() {
    const client = createClient({ socket: { path: redis.socket, tls: false } });
    await client.connect();
    closers.push(() => client.quit());
    return client;
  }

  it("takes the result over on the other node once the dead node's lease expired, never answering it before", async () => {
    const service = await finishedService();
    const { node: node1, url: url1, hear } = await dyingNode(service.url, 800);
    const client = await redisClient();
    const stored: string[] = [];
    const node2 = createServer(
      createProxyHandler({
        baseUrl: service.url,
        accessToken: ACCESS_TOKEN,
        store: new RedisStore(client as unknown as RedisClientLike),
        rateLimit: false,
        minPollIntervalMs: 0,
        resultTimeoutMs: 800,
        resultWaitMs: 100,
        onResult: (result) => void stored.push(result.token),
      }) as RequestListener,
    );
    const url2 = await listen(node2);
    closers.push(() => new Promise((resolve) => (node2.closeAllConnections(), node2.close(resolve))));

    const jar = new CookieJar();
    const start = await send(`${url1}/smartid/login.json`, 'POST', { code: '60001019906', country: 'EE' }, false, { jar });
    assert.equal(start.json.status, 'ok');
    const cookie = jar.header(url1);
    // node 1's poll: its onResult hangs; node 1 dies while it runs
    const dying = fetch(`${url1}/smartid/status/${SESSION}.json`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: '{}' }).then(
      () => 'answered',
      () => 'connection lost',
    );
    await hear(/onResult running/);
    node1.kill('SIGKILL');
    await once(node1, 'exit');
    assert.equal(await dying, 'connection lost');

    // node 2: "waiting" while the dead node's lease lives, then it runs onResult and answers the result
    const states: string[] = [];
    for (let i = 0; i < 60 && states.at(-1) !== 'ok'; i++) {
      const answer = await send(`${url2}/smartid/status/${SESSION}.json`, 'POST', {}, false, { jar: null, headers: { cookie } });
      states.push(String(answer.json.status));
      if (states.at(-1) === 'ok') assert.deepEqual(stored, [SESSION], 'the result was stored before node 2 answered it');
      else await sleep(100);
    }
    assert.equal(states.at(-1), 'ok');
    assert.equal(states[0], 'waiting', 'the first poll after the death found the lease still held');
    assert.ok(
      states.slice(0, -1).every((state) => state === 'waiting'),
      states.join(','),
    );
    assert.deepEqual(stored, [SESSION]);
    // the lease is gone and the session is marked done, with the login's new visitor cookie kept sealed for a late poll (no key without an expiry)
    // the result's mark (and the one that says its end was told once)
    const keys = (await client.keys('esign-proxy:result:*')).filter((key) => !key.endsWith(':told'));
    assert.equal(keys.length, 1);
    assert.match((await client.get(keys[0]!)) ?? '', /^done:[A-Za-z0-9_-]{40,}$/);
    assert.doesNotMatch((await client.get(keys[0]!)) ?? '', /esign-visitor|Path=/, 'nothing of the cookie readable in the store');
    assert.ok((await client.pTTL(keys[0]!)) > 0);
  });

  it('a node that dies during a long onResult delays the visitor by the renewed lease (8 s) at most, not resultTimeoutMs', async () => {
    const service = await finishedService();
    const { node: node1, url: url1, hear } = await dyingNode(service.url, 30_000);
    const client = await redisClient();
    const stored: string[] = [];
    const url2 = await serve(
      createProxyHandler({
        baseUrl: service.url,
        accessToken: ACCESS_TOKEN,
        store: new RedisStore(client as unknown as RedisClientLike),
        rateLimit: false,
        minPollIntervalMs: 0,
        resultWaitMs: 100,
        onResult: (result) => void stored.push(result.token),
      }),
    );
    const jar = new CookieJar();
    // the session's entries are named by a keyed digest of its token (the visitor secret: here the access token)
    const resultKey = `esign-proxy:result:${tokenName(ACCESS_TOKEN, SESSION)}`;
    await client.del(resultKey);
    assert.equal((await send(`${url1}/smartid/login.json`, 'POST', { code: '60001019906', country: 'EE' }, false, { jar })).json.status, 'ok');
    const cookie = jar.header(url1);
    const dying = fetch(`${url1}/smartid/status/${SESSION}.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    }).catch(() => undefined);
    await hear(/onResult running/);
    // the claim lives the renewed lease, not the 30 s onResult may take
    const ttl = await client.pTTL(resultKey);
    assert.ok(ttl > 0 && ttl <= 8_000, `the lease's time to live: ${ttl} ms`);
    node1.kill('SIGKILL');
    await once(node1, 'exit');
    await dying;
    const states: string[] = [];
    for (let i = 0; i < 60 && states.at(-1) !== 'ok'; i++) {
      const answer = await send(`${url2}/smartid/status/${SESSION}.json`, 'POST', {}, false, { jar: null, headers: { cookie } });
      states.push(String(answer.json.status));
      if (states.at(-1) !== 'ok') await sleep(250);
    }
    // 250 ms apart: the result within the lease's 8 s (and a poll's own time), where it used to take 31 s
    assert.equal(states.at(-1), 'ok', states.join(','));
    assert.ok(states.length <= 8_000 / 250 + 4, `${states.length} polls`);
    assert.deepEqual(stored, [SESSION]);
  });

  it('a live onResult that runs past the lease keeps its claim: renewed while it runs, no other poll runs it again meanwhile', async () => {
    const service = await finishedService();
    const client = await redisClient();
    const store = new RedisStore(client);
    const resultKey = `esign-proxy:result:${tokenName(ACCESS_TOKEN, SESSION)}`;
    await client.del(resultKey);
    let runs = 0;
    const run = gate();
    const node = (onResult: ProxyOptions['onResult']) =>
      serve(
        createProxyHandler({ baseUrl: service.url, accessToken: ACCESS_TOKEN, store, rateLimit: false, minPollIntervalMs: 0, resultWaitMs: 100, onResult }),
      );
    // the run goes on until the test lets it end: past its renewals, however long the machine takes
    const slow = await node(async () => {
      runs++;
      await run.passed;
    });
    const other = await node(() => void runs++);
    const jar = new CookieJar();
    assert.equal((await send(`${slow}/smartid/login.json`, 'POST', { code: '60001019906', country: 'EE' }, false, { jar })).json.status, 'ok');
    const cookie = jar.header(slow);
    const first = await send(`${slow}/smartid/status/${SESSION}.json`, 'POST', {}, false, { jar: null, headers: { cookie } });
    assert.equal(first.json.status, 'waiting', 'the poll that runs it answered within its wait; the run goes on');
    const taken = await client.pTTL(resultKey);
    assert.ok(taken > 0 && taken <= RENEWED_LEASE_MS, `the claim's time to live: ${taken} ms`);
    // renewed: its time to live rises again, where a lease left alone only falls until it is gone
    let lowest = taken;
    await until(
      async () => {
        const ttl = await client.pTTL(resultKey);
        assert.ok(ttl > 0, 'the claim never lapses while its run is alive');
        const risen = ttl > lowest;
        lowest = Math.min(lowest, ttl);
        return risen;
      },
      'the claim renewed',
      RENEW_EVERY_MS * 4,
      50,
    );
    const meanwhile = await send(`${other}/smartid/status/${SESSION}.json`, 'POST', {}, false, { jar: null, headers: { cookie } });
    assert.equal(meanwhile.json.status, 'waiting', 'the renewed claim holds off the other node');
    assert.equal(runs, 1);
    run.open();
    await until(
      async () => (await send(`${other}/smartid/status/${SESSION}.json`, 'POST', {}, false, { jar: null, headers: { cookie } })).json.status === 'ok',
      'the result after the run',
      15_000,
      200,
    );
    assert.equal(runs, 1);
  });
});
