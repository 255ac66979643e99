import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  /** The Unix socket it listens on. */
  socket: string;
  stop: () => Promise<void>;
  /** Stops the server, keeping its socket's place: a store that loses its server. */
  pause: () => Promise<void>;
  /** Starts it again on the same socket (empty: it keeps nothing). */
  resume: () => Promise<void>;
}

async function spawnRedis(socket: string): Promise<ChildProcess> {
  const redis = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  redis.stdout!.setEncoding('utf8');
  while (!/ready to accept connections/i.test(output)) {
    const [chunk] = (await Promise.race([once(redis.stdout!, 'data'), once(redis, 'exit').then(() => assert.fail('redis-server exited'))])) as [string];
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
  };
}
