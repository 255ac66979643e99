import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox } from 'esign-sandbox';
import { pythonProxy } from './check-proxy-setups.js';
import { freePort, scratchDir, startedByThisFile } from './processes.js';
import { untilAnswering } from './wait.js';

// The PHP and Python proxies keep their state, without ESIGN_STATE_FILE, in a folder of their own
// account in the temp folder (0700), the files in it 0600: no other account of the machine reads a
// binding, a kept cookie or a counter. A folder of that name that is open to others is refused.

const { children } = startedByThisFile();
const TOKEN = 'state-at-rest-token';
const sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 100 });
after(() => sandbox.close());
const PHP_PROXY = new URL('../../examples/proxy-php/proxy.php', import.meta.url).pathname;
const PYTHON_DIR = new URL('../../examples/proxy-python/', import.meta.url).pathname;
const uid = process.getuid?.() ?? 0;

async function phpProxy(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const child = spawn('php', ['-S', `127.0.0.1:${port}`, PHP_PROXY], { env: { ...process.env, ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  await untilAnswering(`http://127.0.0.1:${port}/`, child, () => log);
  return `http://127.0.0.1:${port}/esign`;
}

/** A login started through the proxy: what makes it write its state. */
async function startLogin(endpoint: string): Promise<Response> {
  const origin = new URL(endpoint).origin;
  return fetch(`${endpoint}/smartid/login.json`, { method: 'POST', headers: { 'content-type': 'application/json', origin }, body: JSON.stringify({ code: '40504040001', country: 'EE' }) });
}

function assertPrivate(dir: string): void {
  const folder = join(dir, `esign-proxy-${uid}`);
  assert.equal(statSync(folder).mode & 0o777, 0o700, 'the folder is this account\'s alone');
  const files = readdirSync(folder);
  assert.ok(files.includes('state.sqlite'), `the state is there: ${files.join(', ')}`);
  for (const file of files) assert.equal(statSync(join(folder, file)).mode & 0o077, 0, `${file} readable by this account alone`);
}

describe('the PHP and Python proxies keep their state where no other account reads it', () => {
  it('PHP: by default in a 0700 folder of its own, its files 0600; a folder of that name open to others is refused', async () => {
    const tmp = scratchDir('esign-php-tmp-');
    const started = await startLogin(await phpProxy({ TMPDIR: tmp }));
    assert.equal(started.status, 200, await started.text());
    assertPrivate(tmp);
    const open = scratchDir('esign-php-open-');
    mkdirSync(join(open, `esign-proxy-${uid}`), { mode: 0o777 });
    spawnSync('chmod', ['0777', join(open, `esign-proxy-${uid}`)]);
    const refused = await startLogin(await phpProxy({ TMPDIR: open }));
    assert.equal(refused.status, 500);
    assert.equal(((await refused.json()) as { proxy_error: string }).proxy_error, 'misconfigured');
    assert.deepEqual(readdirSync(join(open, `esign-proxy-${uid}`)), [], 'nothing kept there');
  });

  it('Python: by default in a 0700 folder of its own, its files 0600; a folder of that name open to others stops it at start', async () => {
    const tmp = scratchDir('esign-py-tmp-');
    const endpoint = await pythonProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_STATE_FILE: '', TMPDIR: tmp });
    const started = await startLogin(endpoint);
    assert.equal(started.status, 200, await started.text());
    assertPrivate(tmp);
    const open = scratchDir('esign-py-open-');
    mkdirSync(join(open, `esign-proxy-${uid}`));
    spawnSync('chmod', ['0755', join(open, `esign-proxy-${uid}`)]);
    const loaded = spawnSync('/usr/bin/python3', ['-c', 'import proxy'], { cwd: PYTHON_DIR, env: { ...process.env, ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_STATE_FILE: '', TMPDIR: open }, encoding: 'utf8' });
    assert.notEqual(loaded.status, 0);
    assert.match(loaded.stderr, /another account's or open to others: set ESIGN_STATE_FILE/);
  });
});
