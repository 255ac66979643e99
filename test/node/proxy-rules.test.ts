import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { STARTS, proxyRulesDocument } from '../../src/protocol/proxy-rules.js';
import { OPERATIONS, OPERATION_IDS, SESSION_STATUS } from '../../src/protocol/operations.js';
import { CHANNELS, type SessionKind } from '../../src/protocol/types.js';

// every kind, or the compiler says which is missing
const SESSION_KINDS = Object.keys({ login: 1, sign: 1, hash: 1 } satisfies Record<SessionKind, 1>) as SessionKind[];
import { STEPS } from '../../src/proxy/core.js';
import { unseal } from '../../src/proxy/sealed.js';
import { DEFAULT_RATE_LIMITS, FINISHED_SESSION_TTL } from '../../src/proxy/options.js';
import { countingService, serverPool } from './harness.js';
import { freePort, startedByThisFile } from './processes.js';
import { untilAnswering } from './wait.js';

// One rulebook (src/protocol/proxy-rules.ts) for both proxies: its JSON copy beside the PHP
// package is what it makes, and the PHP proxy takes its rules from the file (a copy with another
// limit changes what it does). check-proxy then holds both to the rules.

const { children } = startedByThisFile();
const serve = serverPool();
const scratch = mkdtempSync(join(tmpdir(), 'esign-rules-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
const PHP = new URL('../../php/', import.meta.url).pathname;

/** The PHP proxy on its own port, with this environment; its /esign URL. */
async function phpProxy(env: Record<string, string>): Promise<{ url: string; log: () => string }> {
  const port = await freePort();
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, 'proxy.php'], {
    cwd: PHP,
    env: { ...process.env, ESIGN_DEVELOPMENT: '1', ESIGN_STATE_FILE: join(mkdtempSync(join(scratch, 'state-')), 'state.sqlite'), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  await untilAnswering(`http://127.0.0.1:${port}/esign/`, child, () => `php: ${log}`);
  return { url: `http://127.0.0.1:${port}/esign`, log: () => log };
}

describe("the protocol's status table", () => {
  it("names one status operation of the protocol for each kind and channel, and every start's status is the one it names", () => {
    const named = SESSION_KINDS.flatMap((kind) => CHANNELS.map((channel) => SESSION_STATUS[kind][channel]));
    assert.equal(new Set(named).size, SESSION_KINDS.length * CHANNELS.length);
    for (const operation of named) assert.ok(Object.values(OPERATIONS).includes(operation));
    for (const id of OPERATION_IDS) {
      const start = STARTS[id];
      if (start) assert.equal(OPERATIONS[start.status], SESSION_STATUS[start.kind][start.channel], id);
    }
    assert.equal(Object.keys(STARTS).length, SESSION_KINDS.length * CHANNELS.length);
  });
});

describe('the proxy rulebook', () => {
  it("its copy beside the PHP package is what src/protocol/proxy-rules.ts makes, with the Node proxy's own defaults", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/proxy-rules.ts', '--check']);
    assert.match(stdout, /the rulebook and its copies agree/);
    const copy = JSON.parse(readFileSync('php/proxy-rules.json', 'utf8')) as ReturnType<typeof proxyRulesDocument>;
    assert.deepEqual(copy.rateLimits, DEFAULT_RATE_LIMITS);
    assert.equal(copy.finishedSessionTtlMs, FINISHED_SESSION_TTL);
  });

  it('a rules file of a version the PHP proxy does not know is refused, saying so: 500 misconfigured for every request', async () => {
    const file = join(scratch, 'rules-next.json');
    writeFileSync(file, JSON.stringify({ ...proxyRulesDocument(), version: 2 }));
    const php = await phpProxy({ ESIGN_BASE_URL: 'http://127.0.0.1:9', ESIGN_ACCESS_TOKEN: 'rules-version-token', ESIGN_RULES_FILE: file });
    const answer = await fetch(`${php.url}/smartid/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: '40504040001', country: 'EE' }),
    });
    assert.equal(answer.status, 500);
    assert.equal(((await answer.json()) as { proxy_error: string }).proxy_error, 'misconfigured');
    assert.match(php.log(), /proxy-rules\.json is of version 2; this proxy keeps version 1/);
  });

  it("the PHP proxy runs a request as steps of the Node proxy's names, in its order (all but authorize: its document operations are off), one class each", async () => {
    const node = STEPS.map((step) => step.name).filter((name) => name !== 'authorize');
    const { stdout } = await promisify(execFile)('php', [
      '-r',
      `require ${JSON.stringify(`${PHP}src/autoload.php`)}; echo json_encode(Esign\\Proxy\\Proxy::stepNames());`,
    ]);
    assert.deepEqual(JSON.parse(stdout), node);
  });

  it("the PHP package's test vectors are what the Node proxy decides now, and Node opens what PHP sealed", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/proxy-vectors.ts', '--check']);
    assert.match(stdout, /the vectors are the Node proxy's/);
    const secret = 'a-visitor-secret-of-both';
    const text = 'Set-Cookie: PHPSESSID=žodis; path=/';
    const { stdout: sealed } = await promisify(execFile)('php', [
      '-r',
      `require ${JSON.stringify(`${PHP}src/autoload.php`)}; echo Esign\\Proxy\\Sealed::seal($argv[1], $argv[2]);`,
      secret,
      text,
    ]);
    assert.equal(unseal(secret, sealed), text);
    assert.equal(unseal('another-secret', sealed), null);
  });

  it('the PHP proxy takes its rules from the file: a copy with two starts per person stops the third', async () => {
    const service = await countingService(serve);
    const rules = proxyRulesDocument();
    const changed = { ...rules, rateLimits: { ...rules.rateLimits, perPerson: { limit: 2, windowMs: 600_000 } } };
    const file = join(scratch, 'rules-php.json');
    writeFileSync(file, JSON.stringify(changed));
    const start = async (url: string) =>
      (
        await fetch(`${url}/smartid/login.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ code: '40504040001', country: 'EE' }),
        })
      ).status;
    const strict = (await phpProxy({ ESIGN_BASE_URL: service.url, ESIGN_ACCESS_TOKEN: 'rules-php-token', ESIGN_RULES_FILE: file })).url;
    assert.deepEqual([await start(strict), await start(strict), await start(strict)], [200, 200, 429]);
    const shipped = (await phpProxy({ ESIGN_BASE_URL: service.url, ESIGN_ACCESS_TOKEN: 'rules-php-token' })).url;
    assert.deepEqual([await start(shipped), await start(shipped), await start(shipped)], [200, 200, 200], 'the shipped file: six per person');
    assert.equal(service.seen.length, 5);
  });
});
