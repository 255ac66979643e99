import { after } from 'node:test';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A port free on loopback now (for a process that takes its port as an argument). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Processes and servers a test file started, ended after the file: kept here as they start. */
export function startedByThisFile(): { children: ChildProcess[]; servers: Server[] } {
  const started = { children: [] as ChildProcess[], servers: [] as Server[] };
  after(async () => {
    for (const child of started.children) child.kill();
    for (const server of started.servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  return started;
}
