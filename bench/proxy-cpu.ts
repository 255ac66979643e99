import { once } from 'node:events';
import { Agent } from 'node:http';
import { resolve } from 'node:path';
import { CONNECTIONS, load, median, post, startProcess } from './proxy-throughput.js';

/*
 * CPU time a status poll in each server: where the proxy stands against the pass-through, and what
 * a change to it saves. Not part of `npm run bench`; run it on its own:
 *   npx tsx bench/proxy-cpu.ts [label=mode[@built dir] ...]
 * Modes as bench/proxy-server.mjs has them; without arguments, the pass-through, the proxy and the
 * proxy with OpenTelemetry, all from dist/. Two builds of the proxy compare as `a=proxy@one-dir
 * b=proxy@another-dir` (each a compiled src/, such as `tsc -p tsconfig.build.json
 * --emitDeclarationOnly false --declaration false --outDir <dir>`, inside the project so that its
 * packages are found).
 *
 * The servers share the second core (taskset), the sandbox and the load the first. They are loaded
 * in turns, slice by slice (the order reversed every other slice), and each slice reads the
 * server's own CPU time (`/__cpu`): a slower moment of the machine falls on every server alike. A
 * figure is the median of a server's slices; "against the first" is the median of each slice's
 * ratio to the first server's slice of the same turn.
 */

const TOKEN = 'bench-access-token';
const SLICES = Number(process.env['SLICES'] ?? 20);
const SLICE_MS = 1_000;

interface Server {
  label: string;
  url: string;
  poll: string;
  cookie: string | undefined;
  agent: Agent;
  child: import('node:child_process').ChildProcess;
  microseconds: number[];
}

const pinned = (core: number, args: string[]) => ['-c', String(core), process.execPath, ...args];

async function cpuOf(server: Server): Promise<{ cpuUs: number; requests: number }> {
  return JSON.parse((await post(server.agent, `${server.url}/__cpu`, '{}')).text) as { cpuUs: number; requests: number };
}

/** Loads one server for a slice; its CPU time a request in that slice, in µs. */
async function slice(server: Server, durationMs: number): Promise<number> {
  const before = await cpuOf(server);
  const { errors } = await load(server.agent, server.poll, '{}', server.cookie, durationMs);
  const after = await cpuOf(server);
  if (errors) throw new Error(`${server.label}: ${errors} polls were not answered "waiting"`);
  return (after.cpuUs - before.cpuUs) / (after.requests - before.requests);
}

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ['pass-through=pass-through', 'proxy=proxy', 'proxy-otel=proxy-otel'];
const sandbox = await startProcess(
  pinned(0, ['sandbox/bin/esign-sandbox.js', '--port', '0', '--access-token', TOKEN, '--answer-after', '3600000']),
  /listening on (\S+)/,
  'taskset',
);
const servers: Server[] = [];
try {
  for (const spec of wanted) {
    const [label, how = ''] = spec.split('=') as [string, string?];
    const [mode = 'proxy', built] = how.split('@');
    const started = await startProcess(
      pinned(1, ['bench/proxy-server.mjs', sandbox.url, TOKEN, mode, ...(built ? [resolve(built)] : [])]),
      /proxy on (\S+)/,
      'taskset',
    );
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    // a session started through the server (the pass-through's at the sandbox, as it forwards it)
    const start = await post(
      agent,
      `${mode === 'pass-through' ? sandbox.url : started.url}/smartid/login.json`,
      JSON.stringify({ code: '40504040001', country: 'EE', ...(mode === 'pass-through' ? { access_token: TOKEN } : {}) }),
    );
    const token = (JSON.parse(start.text) as { token: string }).token;
    servers.push({
      label,
      url: started.url,
      poll: `${started.url}/smartid/status/${token}.json`,
      cookie: start.setCookie,
      agent,
      child: started.child,
      microseconds: [],
    });
  }
  for (const server of servers) await slice(server, 1_500);
  for (let i = 0; i < SLICES; i++) for (const server of i % 2 ? [...servers].reverse() : servers) server.microseconds.push(await slice(server, SLICE_MS));
  const first = servers[0]!;
  console.log(
    `| CPU time a status poll, ${CONNECTIONS} connections, median of ${SLICES} slices of ${SLICE_MS / 1000} s taking turns | µs | against the first |`,
  );
  console.log('|---|---:|---:|');
  for (const server of servers) {
    const against = median(server.microseconds.map((us, i) => us / first.microseconds[i]!));
    console.log(`| ${server.label} | ${median(server.microseconds).toFixed(1)} | ${against.toFixed(3)}× |`);
  }
} finally {
  for (const server of servers) {
    server.agent.destroy();
    server.child.kill('SIGINT');
    await once(server.child, 'exit');
  }
  sandbox.child.kill();
}
