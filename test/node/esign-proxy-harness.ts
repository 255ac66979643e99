import assert from 'node:assert/strict';
import { after } from 'node:test';
import { createClient } from 'redis';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, startedByThisFile } from './processes.js';
import { until } from './wait.js';
import { staleBuild } from './fresh-build.js';
import { fileURLToPath } from 'node:url';

/*
 * `esign-proxy` as a host runs it, for the test files that try it: the built bin with its settings
 * in its environment, a redis-server on a TCP port, and a host's own server that takes deliveries
 * as the Standard Webhooks package verifies them and answers as each test tells it.
 */

export const BIN = new URL('../../bin/esign-proxy.js', import.meta.url).pathname;

export interface RunningProxy {
  url: string;
  port: number;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** The operator's lines (stderr), parsed: each is JSON. */
  lines: () => Record<string, unknown>[];
}

/** What the host's server answers a delivery: a status, a cookie, after a while, with a body of this many bytes. */
export interface HostAnswer {
  status: number;
  cookie?: string;
  delayMs?: number;
  bodyBytes?: number;
  /** A JSON body instead (the signer URL's answer). */
  json?: unknown;
}

export interface Delivery {
  headers: Record<string, string>;
  body: string;
  verified: Record<string, unknown> | null;
  at: number;
  /** When the host's answer was written whole (or its connection closed). */
  answeredAt?: number;
  /** How many bytes of the answer's body went out before the proxy closed the connection or the body ended. */
  written: number;
}

const CHUNK = Buffer.alloc(1024 * 1024, 'x');

/** Writes `bytes` of body as fast as the peer reads it, stopping when the connection goes; resolves with what went out. */
function writeBody(res: ServerResponse, bytes: number): Promise<number> {
  return new Promise((resolve) => {
    let written = 0;
    let done = false;
    const finish = () => {
      if (!done) ((done = true), resolve(written));
    };
    res.on('close', finish);
    const more = () => {
      while (!done && written < bytes) {
        const piece = CHUNK.subarray(0, Math.min(CHUNK.length, bytes - written));
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      if (!done) res.end(finish);
    };
    more();
  });
}

export function esignProxyHarness() {
  const stale = staleBuild(fileURLToPath(new URL('../..', import.meta.url)));
  if (stale) throw new Error(stale);
  const { children, servers } = startedByThisFile();

  async function esignProxy(
    env: Record<string, string>,
    args: string[] = [],
    options: { command?: [string, string[]]; cwd?: string } = {},
  ): Promise<RunningProxy> {
    const port = env['PORT'] ? Number(env['PORT']) : await freePort();
    const [command, commandArgs] = options.command ?? [process.execPath, [BIN, ...args]];
    const child = spawn(command, commandArgs, {
      env: { ...process.env, PORT: String(port), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    await until(
      () => {
        if (child.exitCode !== null) assert.fail(`esign-proxy exited: ${stderr}`);
        return /listening on/.test(stderr);
      },
      `esign-proxy listening: ${stderr}`,
      60_000,
      20,
    );
    assert.match(stderr, /esign-proxy listening on http:\/\/127\.0\.0\.1:\d+\/esign\//);
    const lines = () =>
      stderr
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { url: `http://127.0.0.1:${port}`, port, child, stdout: () => stdout, stderr: () => stderr, lines };
  }

  /** A redis-server of this test on a TCP port (the URL a host gives), and its process. */
  async function redisOnPort(port?: number): Promise<{ url: string; pid: number; child: ChildProcess }> {
    const at = port ?? (await freePort());
    const redis = spawn('redis-server', ['--port', String(at), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(redis);
    let output = '';
    redis.stdout.setEncoding('utf8');
    while (!/ready to accept connections/i.test(output)) {
      const [chunk] = (await Promise.race([once(redis.stdout, 'data'), once(redis, 'exit').then(() => assert.fail('redis-server exited'))])) as [string];
      output += chunk;
    }
    return { url: `redis://127.0.0.1:${at}`, pid: redis.pid!, child: redis };
  }

  /** A host's own server: it takes deliveries as the Standard Webhooks package verifies them, and answers as told. */
  async function hostServer(secret: string, answer: (attempt: number, verified: Record<string, unknown>) => HostAnswer) {
    const { Webhook } = await import('standardwebhooks');
    const deliveries: Delivery[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        let verified: Record<string, unknown> | null = null;
        try {
          verified = new Webhook(secret).verify(body, headers) as Record<string, unknown>;
        } catch {
          verified = null;
        }
        const delivery: Delivery = { headers, body, verified, at: Date.now(), written: 0 };
        deliveries.push(delivery);
        if (!verified) return void res.writeHead(400).end();
        const told = answer(deliveries.length, verified);
        setTimeout(() => {
          if (told.json !== undefined) {
            res.writeHead(told.status, { 'content-type': 'application/json' }).end(JSON.stringify(told.json));
            delivery.answeredAt = Date.now();
            return;
          }
          res.writeHead(told.status, { ...(told.cookie ? { 'set-cookie': told.cookie } : {}), 'content-type': 'text/plain' });
          void writeBody(res, told.bodyBytes ?? 0).then((written) => {
            delivery.written = written;
            delivery.answeredAt = Date.now();
          });
        }, told.delayMs ?? 0);
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/esign-webhook`, deliveries, server };
  }

  return { children, servers, esignProxy, redisOnPort, hostServer };
}

/** A browser of the tests: its cookies kept as a browser keeps them, each POST's answer read whole. */
export function browserOf(base: string, cookie = '') {
  const jar = { cookie };
  const post = async (path: string, body: object, signal?: AbortSignal) => {
    const answer = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(jar.cookie ? { cookie: jar.cookie } : {}) },
      body: JSON.stringify(body),
      ...(signal ? { signal } : {}),
    });
    const set = answer.headers.getSetCookie();
    for (const line of set) {
      const pair = line.split(';')[0]!;
      const name = pair.split('=')[0]!;
      jar.cookie = [...jar.cookie.split('; ').filter((c) => c && !c.startsWith(`${name}=`)), pair].join('; ');
    }
    return { status: answer.status, json: (await answer.json()) as Record<string, unknown>, set, at: Date.now() };
  };
  return { jar, post };
}

/** Peak resident memory of a process (VmHWM), bytes. */
export function peakMemory(pid: number, read: (path: string) => string): number {
  const line = read(`/proc/${pid}/status`)
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) * 1024;
}

/**
 * A client that reads a test's Redis whole, quit when the file ends. The harness stops its
 * redis-server then too, maybe first: a reset on this reader is no uncaught error.
 */
export async function redisReader(url: string) {
  const reader = createClient({ url });
  reader.on('error', () => undefined);
  await reader.connect();
  after(() => reader.quit().catch(() => undefined));
  return reader;
}
