import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { browserOf, esignProxyHarness } from './esign-proxy-harness.js';
import { freePort, scratchDir } from './processes.js';
import { until } from './wait.js';
import { oidcFiles } from './oidc-harness.js';

// esign-proxy as a stranger gets it: the package packed, installed from its tarball in an empty
// folder, `npx esign-proxy` run there against the sandbox (a login delivered to the site), and
// stopped by a SIGTERM to npx; and the standalone file, copied alone into another empty folder,
// run with nothing but node (Redis included).

const TOKEN = 'packed-sandbox-token';
const SECRET = `whsec_${Buffer.from('the-packed-proxy-webhook-secret!!').toString('base64')}`;
const ROOT = new URL('../../', import.meta.url).pathname;
const { esignProxy, hostServer, redisOnPort } = esignProxyHarness();
// made here, not in a hook: a folder's removal is registered for the end of the file
const packs = scratchDir('esign-pack-');
const installed = scratchDir('esign-stranger-');
const alone = scratchDir('esign-standalone-');
let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 200 });
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', packs], { cwd: ROOT, encoding: 'utf8' })) as {
    filename: string;
  }[];
  execFileSync('npm', ['init', '-y'], { cwd: installed, stdio: 'ignore' });
  execFileSync('npm', ['install', '--no-audit', '--no-fund', join(packs, packed!.filename)], { cwd: installed, stdio: 'ignore', timeout: 300_000 });
});
after(async () => {
  await sandbox?.close();
});

async function logIn(base: string): Promise<string> {
  const browser = browserOf(base, 'site-session=anonymous');
  const start = await browser.post('/smartid/login.json', { code: '40504040001', country: 'EE' });
  assert.equal(start.json['status'], 'ok', JSON.stringify(start.json));
  for (let i = 0; i < 30; i++) {
    await new Promise((resolve) => setTimeout(resolve, 600));
    const poll = await browser.post(`/smartid/status/${String(start.json['token'])}.json`, {});
    if (poll.json['status'] !== 'waiting') return String(poll.json['status']);
  }
  return 'waiting';
}

describe('esign-proxy as a stranger installs it', () => {
  it('npx esign-proxy from the packed package in an empty folder: a login delivered to the site, the widget served, and a SIGTERM to npx frees the port', async () => {
    assert.ok(existsSync(join(installed, 'node_modules/esign-elements/dist/server/cli.js')));
    const site = await hostServer(SECRET, () => ({ status: 204 }));
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_WEBHOOK_URL: site.url, ESIGN_WEBHOOK_SECRET: SECRET }, [], {
      command: ['npx', ['esign-proxy']],
      cwd: installed,
    });
    assert.equal(await logIn(`${proxy.url}/esign`), 'ok');
    assert.equal(site.deliveries.length, 1);
    assert.equal(site.deliveries[0]!.verified?.['type'], 'login.verified');
    const script = await fetch(`${proxy.url}/esign/cdn/esign-identify.js`);
    assert.equal(script.status, 200, "the widget's files from the installed package");
    await script.arrayBuffer();
    // the signal goes to npx (npm exec), which ends without passing it on: the server follows it
    proxy.child.kill('SIGTERM');
    await until(
      async () =>
        (await fetch(`${proxy.url}/healthz`).then(
          () => 'answering',
          () => 'refused',
        )) === 'refused',
      'the port freed',
      15_000,
      100,
    );
    await until(() => proxy.stderr().includes('stopped'), `the server stopped: ${proxy.stderr()}`, 15_000, 100);
    assert.ok(
      proxy.lines().some((l) => String(l['msg']).includes('launcher')),
      proxy.stderr(),
    );
  });

  it("the standalone file, alone in an empty folder, runs under docs/operating-the-proxy.md's systemd unit with nothing but node: a login delivered, its state in Redis", async () => {
    copyFileSync(join(installed, 'node_modules/esign-elements/dist/standalone/esign-proxy.mjs'), join(alone, 'esign-proxy.mjs'));
    assert.deepEqual(readdirSync(alone), ['esign-proxy.mjs']);
    const redis = await redisOnPort();
    const site = await hostServer(SECRET, () => ({ status: 204 }));
    const siteBase = new URL(site.url).origin;
    // the unit as the doc has it, its machine's places put where this test has them
    const unit = (/```ini\n([\s\S]*?)```/.exec(readFileSync(new URL('../../docs/operating-the-proxy.md', import.meta.url), 'utf8')) ?? [])[1] ?? '';
    const here = (value: string) =>
      value
        .replaceAll('/opt/esign-proxy/', `${alone}/`)
        .replaceAll('/usr/bin/node', process.execPath)
        .replaceAll('https://service.example', sandbox.url)
        .replaceAll('redis://127.0.0.1:6379', redis.url)
        .replaceAll('http://127.0.0.1:8080', siteBase);
    const env: Record<string, string> = {};
    for (const [, name, value] of unit.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)) env[name!] = here(value!);
    // what /etc/esign-proxy.env holds
    Object.assign(env, { ESIGN_ACCESS_TOKEN: TOKEN, ESIGN_WEBHOOK_SECRET: SECRET, PORT: String(await freePort()) });
    const [command, ...args] = here(/^ExecStart=(.*)$/m.exec(unit)?.[1] ?? '').split(' ');
    assert.equal(args[0], join(alone, 'esign-proxy.mjs'), 'the unit runs the standalone file');
    // the OpenID Provider's files where the unit names them, and its key in the env file
    const oidc = oidcFiles();
    copyFileSync(oidc.clients, join(alone, 'clients.json'));
    copyFileSync(oidc.keys, join(alone, 'oidc-keys.json'));
    env['ESIGN_OIDC_SUBJECT_SECRET'] = 'the-subject-secret-of-the-unit';
    const proxy = await esignProxy(env, [], { command: [command!, args], cwd: alone });
    await until(async () => (await fetch(`${proxy.url}/readyz`)).status === 200, 'ready with its Redis', 10_000, 100);
    // the provider inside the one file: its discovery, with the issuer the unit sets
    const discovery = await fetch(`${proxy.url}/esign/oidc/.well-known/openid-configuration`);
    assert.equal(discovery.status, 200);
    assert.equal(((await discovery.json()) as { issuer: string }).issuer, 'https://site.example/esign/oidc');
    assert.equal(await logIn(`${proxy.url}/esign`), 'ok');
    // a login by OpenID Connect is the provider's: the site hears of it after, as a notification
    await until(() => site.deliveries.length > 0, 'the login notified to the site', 10_000, 50);
    assert.equal(site.deliveries[0]?.verified?.['type'], 'login.verified', 'delivered to the site');
    const keys = execFileSync('redis-cli', ['-p', new URL(redis.url).port, '--scan'], { encoding: 'utf8' });
    assert.match(keys, /^esign-proxy:[0-9a-f]{12}:bind:/m, 'its state in Redis');
    assert.equal((await fetch(`${proxy.url}/esign/cdn/esign-identify.js`)).status, 404, 'no widget files beside it: none served');
    // systemd's stop: a SIGTERM, and the process ends by itself
    proxy.child.kill('SIGTERM');
    await until(() => proxy.child.exitCode === 0, `stopped: ${proxy.stderr()}`, 10_000, 50);
  });
});
