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
import { DEFAULT_RATE_LIMITS, FINISHED_SESSION_TTL } from '../../src/proxy/options.js';
import { countingService, serverPool } from './harness.js';
import { freePort, startedByThisFile } from './processes.js';
import { untilAnswering } from './wait.js';

// One rulebook (src/protocol/proxy-rules.ts) for the three proxies: its JSON copies beside the
// Python and PHP proxies are what it makes, and those proxies take their rules from the file
// (a copy with another limit changes what they do). check-proxy then holds all three to the rules.

const { children } = startedByThisFile();
const serve = serverPool();
const scratch = mkdtempSync(join(tmpdir(), 'esign-rules-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** A proxy of another language on its own port, with this environment; its /esign URL. */
async function proxyOf(kind: 'python' | 'php', env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const dir = new URL(`../../examples/proxy-${kind}/`, import.meta.url).pathname;
  const [command, args] = kind === 'python' ? ['/usr/bin/python3', ['-m', 'flask', '--app', 'proxy', 'run', '--port', String(port)]] : ['php', ['-S', `127.0.0.1:${port}`, 'proxy.php']];
  const child = spawn(command, args, { cwd: dir, env: { ...process.env, ESIGN_STATE_FILE: join(mkdtempSync(join(scratch, 'state-')), 'state.sqlite'), ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  await untilAnswering(`http://127.0.0.1:${port}/esign/`, child, () => `${command}: ${log}`);
  return `http://127.0.0.1:${port}/esign`;
}

describe('the protocol\'s status table', () => {
  it('names one status operation of the protocol for each kind and channel, and every start\'s status is the one it names', () => {
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
  it('its copies beside the Python and PHP proxies are what src/protocol/proxy-rules.ts makes', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/proxy-rules.ts', '--check']);
    assert.match(stdout, /the rulebook and its copies agree/);
    const copy = JSON.parse(readFileSync('examples/proxy-python/proxy-rules.json', 'utf8')) as ReturnType<typeof proxyRulesDocument>;
    // the Node proxy's own defaults are the rulebook's numbers
    assert.deepEqual(copy.rateLimits, DEFAULT_RATE_LIMITS);
    assert.equal(copy.finishedSessionTtlMs, FINISHED_SESSION_TTL);
    assert.equal(readFileSync('examples/proxy-php/proxy-rules.json', 'utf8'), readFileSync('examples/proxy-python/proxy-rules.json', 'utf8'));
  });

  it('a rules file of a version the Python or PHP proxy does not know is refused, saying so: Python at import, PHP with 500 misconfigured for every request', async () => {
    const file = join(scratch, 'rules-next.json');
    writeFileSync(file, JSON.stringify({ ...proxyRulesDocument(), version: 2 }));
    const env = { ...process.env, ESIGN_BASE_URL: 'http://127.0.0.1:9', ESIGN_ACCESS_TOKEN: 'rules-version-token', ESIGN_RULES_FILE: file };
    const python = await promisify(execFile)('/usr/bin/python3', ['-c', 'import proxy'], { cwd: 'examples/proxy-python', env }).then(
      () => assert.fail('Python imported a rules file of version 2'),
      (error: { stderr: string }) => error.stderr,
    );
    assert.match(python, /proxy-rules\.json is of version 2; this proxy keeps version 1/);
    const port = await freePort();
    const child = spawn('php', ['-S', `127.0.0.1:${port}`, 'proxy.php'], { cwd: 'examples/proxy-php', env, stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(child);
    let log = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    await untilAnswering(`http://127.0.0.1:${port}/esign/`, child, () => log);
    const answer = await fetch(`http://127.0.0.1:${port}/esign/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '40504040001', country: 'EE' }) });
    assert.equal(answer.status, 500);
    assert.equal(((await answer.json()) as { proxy_error: string }).proxy_error, 'misconfigured');
    assert.match(log, /proxy-rules\.json is of version 2; this proxy keeps version 1/);
  });

  it('the Python and PHP proxies run their request as named steps in the Node proxy\'s order (all but authorize: their document operations are off)', () => {
    const node = STEPS.map((step) => step.name).filter((name) => name !== 'authorize');
    // a step's name in either language, written as the Node proxy's: step_read_fields → fields, signer_gate → signer
    const ALIASES: Record<string, string> = { readFields: 'fields', signerGate: 'signer', signerStep: 'signer', visitorStep: 'visitor', filterAnswer: 'filter', handOverStep: 'handOver', handOverResult: 'handOver' };
    const asNode = (name: string) => {
      const camel = name.replace(/^step_/, '').replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase());
      return ALIASES[camel] ?? camel;
    };
    const python = /^STEPS = \(([^)]*)\)/m.exec(readFileSync('examples/proxy-python/proxy.py', 'utf8'))?.[1] ?? '';
    const php = /^const STEPS = \[([^\]]*)\]/m.exec(readFileSync('examples/proxy-php/proxy.php', 'utf8'))?.[1] ?? '';
    assert.deepEqual(python.split(',').map((n) => asNode(n.trim())).filter(Boolean), node, 'the Python proxy\'s STEPS');
    assert.deepEqual(php.split(',').map((n) => asNode(n.trim().replace(/'/g, ''))).filter(Boolean), node, 'the PHP proxy\'s STEPS');
  });

  for (const kind of ['python', 'php'] as const) {
    it(`the ${kind === 'python' ? 'Python' : 'PHP'} proxy takes its rules from the file: a copy with two starts per person stops the third`, async () => {
      const service = await countingService(serve);
      const rules = proxyRulesDocument();
      const changed = { ...rules, rateLimits: { ...rules.rateLimits, perPerson: { limit: 2, windowMs: 600_000 } } };
      const file = join(scratch, `rules-${kind}.json`);
      writeFileSync(file, JSON.stringify(changed));
      const start = async (url: string) => (await fetch(`${url}/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: '40504040001', country: 'EE' }) })).status;
      const strict = await proxyOf(kind, { ESIGN_BASE_URL: service.url, ESIGN_ACCESS_TOKEN: `rules-${kind}-token`, ESIGN_RULES_FILE: file });
      assert.deepEqual([await start(strict), await start(strict), await start(strict)], [200, 200, 429]);
      const shipped = await proxyOf(kind, { ESIGN_BASE_URL: service.url, ESIGN_ACCESS_TOKEN: `rules-${kind}-token` });
      assert.deepEqual([await start(shipped), await start(shipped), await start(shipped)], [200, 200, 200], 'the shipped file: six per person');
      assert.equal(service.seen.length, 5);
    });
  }
});
