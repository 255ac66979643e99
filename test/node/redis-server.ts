import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServer {
  /** The Unix socket it listens on. */
  socket: string;
  stop: () => Promise<void>;
}

/** A real redis-server (Debian's) on a Unix socket of its own in a fresh directory, without persistence. */
export async function startRedis(): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-redis-'));
  const socket = join(dir, 'redis.sock');
  const redis = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  redis.stdout!.setEncoding('utf8');
  while (!/ready to accept connections/i.test(output)) {
    const [chunk] = (await Promise.race([once(redis.stdout!, 'data'), once(redis, 'exit').then(() => assert.fail('redis-server exited'))])) as [string];
    output += chunk;
  }
  return {
    socket,
    stop: async () => {
      redis.kill();
      await once(redis, 'exit').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
