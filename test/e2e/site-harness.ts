import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nginxBlocks, nginxConfig, scratchDir, startedByThisFile } from '../node/processes.js';
import { untilAnswering } from '../node/wait.js';

/*
 * What the tests of a site beside esign-proxy share: its processes, started as a host starts them
 * and ended with the file; nginx in front with docs/any-stack.md's block; a delivery signed as
 * esign-proxy signs it (Standard Webhooks).
 */

export type Started = { child: ChildProcess; log: () => string };

/** Starts processes for this test file (ended with it); each resolves once `url` answers. */
export function siteProcesses(): (command: string, args: string[], env: Record<string, string>, url: string, cwd?: string) => Promise<Started> {
  const { children } = startedByThisFile();
  return async (command, args, env, url, cwd) => {
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...(cwd ? { cwd } : {}) });
    children.push(child);
    let log = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    await untilAnswering(url, child, () => `${command}: ${log}`, 60_000);
    return { child, log: () => log };
  };
}

/** nginx on a port of its own (not 80), with docs/any-stack.md's block as a reader copies it: /esign/ to esign-proxy, the rest to the site; its origin. */
export async function docsNginx(
  start: ReturnType<typeof siteProcesses>,
  proxyPort: number,
  sitePort: number,
  port: number,
  tls?: { chainFile: string; keyFile: string },
): Promise<string> {
  const dir = scratchDir('esign-nginx-');
  const [block] = nginxBlocks('docs/any-stack.md');
  assert.ok(block && block.includes('127.0.0.1:8787') && block.includes('127.0.0.1:8080'), "the doc's block names the ports it says");
  writeFileSync(
    join(dir, 'nginx.conf'),
    nginxConfig(dir, port, block.replaceAll('127.0.0.1:8787', `127.0.0.1:${proxyPort}`).replaceAll('127.0.0.1:8080', `127.0.0.1:${sitePort}`), tls),
  );
  // behind TLS, nginx answers a plain request too (400): it is listening
  await start('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {}, `http://127.0.0.1:${port}/esign/`);
  return `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
}

/** The headers of a delivery of `body` signed as esign-proxy signs it, under `secret` (`whsec_…`), with its id and time (seconds). */
export function signedDelivery(body: string, secret: string, id: string, at = Math.floor(Date.now() / 1000)): Record<string, string> {
  const signature = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${at}.${body}`)
    .digest('base64');
  return { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(at), 'webhook-signature': `v1,${signature}` };
}
