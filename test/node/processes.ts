import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** A fresh folder in the system's temporary one, removed with everything in it when the test file ends. */
export function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Shell commands that take a SQLite state file away (another process holds its write lock) and give it back. */
export function sqliteStateCommands(stateFile: string): { stopState: string; startState: string } {
  const dir = scratchDir('esign-lock-');
  const holder = `import sqlite3, sys, time; db = sqlite3.connect(sys.argv[1], isolation_level=None); db.execute("BEGIN EXCLUSIVE"); open(sys.argv[2], "w").close(); time.sleep(300)`;
  return {
    stopState: `/usr/bin/python3 -c '${holder}' ${stateFile} ${dir}/ready & echo $! > ${dir}/pid; while [ ! -e ${dir}/ready ]; do sleep 0.05; done`,
    startState: `kill $(cat ${dir}/pid); rm -f ${dir}/ready`,
  };
}

/**
 * nginx's configuration for a test's own nginx: its pid and temporary files in `dir` (made here),
 * errors on stderr, one server on loopback `port` with the given location blocks.
 */
export function nginxConfig(dir: string, port: number, server: string, tls?: { chainFile: string; keyFile: string }): string {
  for (const sub of ['body', 'fastcgi', 'proxy', 'uwsgi', 'scgi']) mkdirSync(join(dir, sub), { recursive: true });
  return `user root;
worker_processes 1;
error_log stderr;
pid ${dir}/nginx.pid;
events {}
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  fastcgi_temp_path ${dir}/fastcgi;
  proxy_temp_path ${dir}/proxy;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port}${tls ? ' ssl' : ''};
${tls ? `    ssl_certificate ${tls.chainFile};\n    ssl_certificate_key ${tls.keyFile};\n` : ''}${server}
  }
}
`;
}

/** The ```nginx blocks of a page of docs/, as a reader copies them (a test runs them, so the doc cannot drift). */
export function nginxBlocks(doc: string): string[] {
  const text = readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8');
  return [...text.matchAll(/```nginx\n([\s\S]*?)```/g)].map((found) => found[1]!);
}
