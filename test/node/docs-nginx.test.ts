import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { createProxyHandler } from '../../src/proxy/index.js';
import { esignProxyHarness } from './esign-proxy-harness.js';
import { freePort, nginxBlocks, nginxConfig, scratchDir } from './processes.js';
import { until, untilAnswering } from './wait.js';

// The nginx blocks of docs/proxy.md and docs/any-stack.md as a reader copies them, on a port other than 80: a page of
// that origin starts a login through each (the Node proxy at 3000, esign-proxy at 8787). With
// nginx's $host instead, the port is dropped: refused, and the log says which line to write.

const TOKEN = 'docs-nginx-token';
const { children, servers, esignProxy } = esignProxyHarness();
let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox({ accessToken: TOKEN, answerAfterMs: 0 });
});
after(async () => {
  await sandbox?.close();
});

/** nginx on a free port with one location block, its upstream's port put where the doc has its own. */
async function nginxWith(block: string, docPort: number, upstream: number): Promise<string> {
  const dir = scratchDir('esign-docs-nginx-');
  const port = await freePort();
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, port, block.replaceAll(`127.0.0.1:${docPort}`, `127.0.0.1:${upstream}`)));
  const child = spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  await untilAnswering(`http://127.0.0.1:${port}/esign/`, child, () => log);
  return `http://127.0.0.1:${port}`;
}

/** A login start from a page of `origin`, as a browser sends it. */
const startFrom = (origin: string) =>
  fetch(`${origin}/esign/smartid/login.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ code: '40504040001', country: 'EE' }),
  });

describe('the nginx blocks of docs/proxy.md and docs/any-stack.md', () => {
  it('the Node proxy behind the first block, on a port other than 80: a page of that origin starts a login', async () => {
    const [block] = nginxBlocks('docs/proxy.md');
    assert.match(block!, /127\.0\.0\.1:3000/);
    const lines: string[] = [];
    const server = createServer(
      createProxyHandler({ baseUrl: sandbox.url, accessToken: TOKEN, prefix: '/esign', log: (line) => lines.push(line) }) as RequestListener,
    );
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = await nginxWith(block!, 3000, (server.address() as AddressInfo).port);
    const answer = await startFrom(origin);
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.equal(((await answer.json()) as { status: string }).status, 'ok');
    assert.deepEqual(lines, []);
  });

  it('esign-proxy behind the second block likewise; with $host the port is dropped, refused, and the log names the port and the line to write', async () => {
    const blocks = nginxBlocks('docs/any-stack.md');
    const block = blocks.find((b) => b.includes('127.0.0.1:8787'));
    assert.ok(block);
    const proxy = await esignProxy({ ESIGN_BASE_URL: sandbox.url, ESIGN_ACCESS_TOKEN: TOKEN });
    const origin = await nginxWith(block, 8787, proxy.port);
    const answer = await startFrom(origin);
    assert.equal(((await answer.json()) as { status: string }).status, 'ok');
    const dropped = await nginxWith(block.replaceAll('$http_host', '$host'), 8787, proxy.port);
    const refused = await startFrom(dropped);
    assert.deepEqual([refused.status, ((await refused.json()) as { proxy_error: string }).proxy_error], [403, 'cross-site']);
    // (its log line reaches this test's pipe after the answer: waited for, not raced)
    const hinted = () => proxy.lines().find((line) => String(line['msg']).includes('refused a request as cross-site'));
    await until(() => hinted() !== undefined, `the hint in the log: ${proxy.stderr()}`);
    const hint = hinted()!;
    assert.match(String(hint['msg']), new RegExp(`port ${new URL(dropped).port}`));
    assert.match(String(hint['msg']), /proxy_set_header Host \$http_host/);
  });
});
