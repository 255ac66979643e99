import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { until } from './wait.js';

export interface RedisServer {
  /** The Unix socket it listens on. */
  socket: string;
  stop: () => Promise<void>;
  /** Stops the server, keeping its socket's place: a store that loses its server. */
  pause: () => Promise<void>;
  /** Starts it again on the same socket (empty: it keeps nothing). */
  resume: () => Promise<void>;
  /** The running server's process id (for a check that freezes it with SIGSTOP and thaws it with SIGCONT). */
  pid: () => number | undefined;
}

async function spawnRedis(socket: string): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  redis.stdout.setEncoding('utf8');
  while (!/ready to accept connections/i.test(output)) {
    const [chunk] = (await Promise.race([once(redis.stdout, 'data'), once(redis, 'exit').then(() => assert.fail('redis-server exited'))])) as [string];
    output += chunk;
  }
  return redis;
}

async function end(redis: ChildProcess | null): Promise<void> {
  if (!redis || redis.exitCode !== null) return;
  redis.kill();
  await once(redis, 'exit').catch(() => undefined);
}

/** A real redis-server (Debian's) on a Unix socket of its own in a fresh directory, without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-redis-'));
  const socket = join(dir, 'redis.sock');
  let redis: ChildProcess | null = await spawnRedis(socket);
  return {
    socket,
    stop: async () => {
      await end(redis);
      redis = null;
      rmSync(dir, { recursive: true, force: true });
    },
    pause: async () => {
      await end(redis);
      redis = null;
    },
    resume: async () => {
      redis ??= await spawnRedis(socket);
    },
    pid: () => redis?.pid,
  };
}

export interface RedisCluster {
  /** The masters' and replicas' ports on 127.0.0.1. */
  ports: number[];
  stop: () => Promise<void>;
}

/**
 * A real Redis Cluster: three masters and three replicas (Debian's redis-server, each on a port
 * of its own in a fresh directory, no persistence), joined by `redis-cli --cluster create`.
 */
export async function startRedisCluster(ports: number[]): Promise<RedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-redis-cluster-'));
  const servers: ChildProcess[] = [];
  const stop = async () => {
    for (const server of servers) await end(server);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) {
      const server = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      servers.push(server);
      let output = '';
      server.stdout.setEncoding('utf8');
      while (!/ready to accept connections/i.test(output)) {
        const [chunk] = (await Promise.race([once(server.stdout, 'data'), once(server, 'exit').then(() => assert.fail('redis-server exited'))])) as [string];
        output += chunk;
      }
      server.stdout.resume();
    }
    const create = spawn('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '1', '--cluster-yes'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let said = '';
    create.stdout.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    const [code] = (await once(create, 'exit')) as [number];
    assert.equal(code, 0, said);
    // every slot served before the tests begin
    await until(
      async () => {
        const info = spawn('redis-cli', ['-p', String(ports[0]), 'cluster', 'info'], { stdio: ['ignore', 'pipe', 'ignore'] });
        let text = '';
        info.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        await once(info, 'exit');
        return /cluster_state:ok/.test(text);
      },
      'the cluster serving every slot',
      10_000,
      100,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { ports, stop };
}
