import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'node:http';

/*
 * Status polls per second and p99 latency, straight to the sandbox and through the proxy, in one
 * run on this machine: the sandbox and each server in processes of their own, the load from this
 * one, all on loopback. The RSS of a proxy process is read after the run.
 *
 * This machine's speed moves by half within a minute (the sandbox alone from 10,000 to 20,000
 * polls a second), so the servers are measured in slices that take turns: in each of ROUNDS
 * rounds, SLICES slices of SLICE_MS per server, the order reversed every other slice and each
 * round starting with the next server, so that a slower moment falls on every server alike.
 *
 * One process of a server is not another: started alike, with the same code, one can spend 3–6%
 * more CPU a poll than another for its whole life (bench/proxy-cpu.ts, three of each at once:
 * pass-throughs 0.97–1.00, proxies 1.03–1.09), and with one process a server that moved a whole
 * run. So each server runs in PROCESSES processes, and in every round each of them serves a
 * block of SLICES / PROCESSES slices in turn: a round's figure is theirs together. A process is
 * first loaded for WARM_MS before its block, not counted: a Node process that sat idle has had
 * its young generation shrunk and for a moment under load again collects garbage far more often.
 * Each figure is the median round's, each ratio the median of the rounds' ratios (both servers of
 * a ratio measured in the same round).
 */

const TOKEN = 'bench-access-token';
export const CONNECTIONS = 32;
const SLICE_MS = 500;
const PROCESSES = 3;
const SLICES = 12;
const WARM_MS = 1_000;
const ROUNDS = 9;

/** Starts a process (Node unless `command` says another) and waits for the line that gives its URL. */
export async function startProcess(args: string[], ready: RegExp, command = process.execPath): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.setEncoding('utf8');
  while (!ready.test(output)) {
    const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => Promise.reject(new Error(`${args.join(' ')} exited`)))])) as [string];
    output += chunk;
  }
  return { child, url: ready.exec(output)![1]! };
}

export function post(agent: Agent, url: string, body: string, cookie?: string): Promise<{ status: number; text: string; setCookie?: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(cookie ? { cookie } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, ...(res.headers['set-cookie'] ? { setCookie: res.headers['set-cookie'][0]!.split(';')[0]! } : {}) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls from CONNECTIONS connections at once for a while (the server's own, kept across its slices): every latency, the errors and the seconds it took. */
export async function load(agent: Agent, url: string, body: string, cookie: string | undefined, durationMs: number): Promise<Slice> {
  const latencies: number[] = [];
  let errors = 0;
  const end = Date.now() + durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const answer = await post(agent, url, body, cookie).catch(() => ({ status: 0, text: '' }));
        latencies.push(performance.now() - t0);
        if (answer.status !== 200 || !answer.text.includes('waiting')) errors++;
      }
    }),
  );
  return { latencies, errors, seconds: (performance.now() - started) / 1000 };
}

type Slice = { latencies: number[]; errors: number; seconds: number };

/** The middle value (the lower of the two middle ones of an even count): always one of the values. */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/** A server's slices of a round as one measure. */
function summed(slices: Slice[]): Load {
  const latencies = slices.flatMap((slice) => slice.latencies).sort((a, b) => a - b);
  const seconds = slices.reduce((sum, slice) => sum + slice.seconds, 0);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors: slices.reduce((sum, slice) => sum + slice.errors, 0) };
}

type Load = { rps: number; p50: number; p99: number; errors: number };

export interface ProxyThroughput {
  direct: Load;
  passThrough: Load;
  proxy: Load;
  proxyOtel: Load;
  /** The proxy against the bare pass-through, telemetry off and on: the goal is 0.9 or more. */
  ratio: number;
  ratioOtel: number;
  /** Each round's ratios, in the order measured. */
  rounds: { ratio: number; ratioOtel: number }[];
  /** Each process's polls a second (the median of its slices), by server. */
  processes: { passThrough: number[]; proxy: number[]; proxyOtel: number[] };
  proxyRssMb: number;
}

/** One process of a server: where its polls go, with what, over its own kept connections. */
interface Poller {
  url: string;
  body: string;
  cookie: string | undefined;
  agent: Agent;
  /** Polls a second in each of its slices. */
  rps: number[];
}

function poller(url: string, body: string, cookie?: string): Poller {
  return { url, body, cookie, agent: new Agent({ keepAlive: true, maxSockets: CONNECTIONS }), rps: [] };
}

export async function measureProxyThroughput(): Promise<ProxyThroughput> {
  const sandbox = await startProcess(['sandbox/bin/esign-sandbox.js', '--port', '0', '--access-token', TOKEN, '--answer-after', '3600000'], /listening on (\S+)/);
  const modes = ['pass-through', 'proxy', 'proxy-otel'] as const;
  const started = await Promise.all(modes.flatMap((mode) => Array.from({ length: PROCESSES }, () => startProcess(['bench/proxy-server.mjs', sandbox.url, TOKEN, mode], /proxy on (\S+)/))));
  const processesOf = (mode: (typeof modes)[number]) => started.slice(modes.indexOf(mode) * PROCESSES, (modes.indexOf(mode) + 1) * PROCESSES);
  try {
    // a session started through each proxy process, so that each polls one it bound to its visitor
    const session = async (url: string) => {
      const agent = new Agent({ keepAlive: true });
      const start = await post(agent, `${url}/smartid/login.json`, JSON.stringify({ code: '40504040001', country: 'EE' }));
      agent.destroy();
      return { token: (JSON.parse(start.text) as { token: string }).token, cookie: start.setCookie! };
    };
    const proxied = async (url: string) => {
      const { token, cookie } = await session(url);
      return poller(`${url}/smartid/status/${token}.json`, '{}', cookie);
    };
    const proxies = await Promise.all(processesOf('proxy').map((server) => proxied(server.url)));
    const traced = await Promise.all(processesOf('proxy-otel').map((server) => proxied(server.url)));
    const { token } = await session(processesOf('proxy')[0]!.url);
    const targets = {
      direct: [poller(`${sandbox.url}/smartid/status/${token}.json`, JSON.stringify({ access_token: TOKEN }))],
      passThrough: processesOf('pass-through').map((server) => poller(`${server.url}/smartid/status/${token}.json`, '{}')),
      proxy: proxies,
      proxyOtel: traced,
    } satisfies Record<string, Poller[]>;
    type Target = keyof typeof targets;
    const rounds: Record<Target, Load>[] = [];
    const names = Object.keys(targets) as Target[];
    for (let round = 0; round < ROUNDS; round++) {
      const turn = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
      const slices = Object.fromEntries(names.map((name) => [name, [] as Slice[]])) as Record<Target, Slice[]>;
      for (let slice = 0; slice < SLICES; slice++) {
        for (const name of slice % 2 ? [...turn].reverse() : turn) {
          const processes = targets[name];
          const block = SLICES / processes.length;
          const one = processes[Math.floor(slice / block)]!;
          if (slice % block === 0) await load(one.agent, one.url, one.body, one.cookie, WARM_MS);
          const measured = await load(one.agent, one.url, one.body, one.cookie, SLICE_MS);
          one.rps.push(measured.latencies.length / measured.seconds);
          slices[name].push(measured);
        }
      }
      rounds.push(Object.fromEntries(names.map((name) => [name, summed(slices[name])])) as Record<Target, Load>);
    }
    for (const processes of Object.values(targets)) for (const one of processes) one.agent.destroy();
    const medianRound = (name: Target) => {
      const rps = median(rounds.map((r) => r[name].rps));
      return rounds.find((r) => r[name].rps === rps)![name];
    };
    const result = { direct: medianRound('direct'), passThrough: medianRound('passThrough'), proxy: medianRound('proxy'), proxyOtel: medianRound('proxyOtel') };
    const rss = await post(new Agent(), `${processesOf('proxy')[0]!.url}/__rss`, '{}');
    return {
      ...result,
      ratio: median(rounds.map((r) => r.proxy.rps / r.passThrough.rps)),
      ratioOtel: median(rounds.map((r) => r.proxyOtel.rps / r.passThrough.rps)),
      rounds: rounds.map((r) => ({ ratio: r.proxy.rps / r.passThrough.rps, ratioOtel: r.proxyOtel.rps / r.passThrough.rps })),
      processes: { passThrough: targets.passThrough.map((one) => median(one.rps)), proxy: proxies.map((one) => median(one.rps)), proxyOtel: traced.map((one) => median(one.rps)) },
      proxyRssMb: Number(rss.text) / 1024 / 1024,
    };
  } finally {
    sandbox.child.kill();
    for (const server of started) {
      server.child.kill('SIGINT');
      await once(server.child, 'exit');
    }
  }
}

export function throughputTable(result: ProxyThroughput): string {
  const row = (name: string, r: Load) => `| ${name} | ${Math.round(r.rps)} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.errors} |`;
  return [
    `| status poll, ${CONNECTIONS} connections, ${(SLICES * SLICE_MS) / 1000} s a server a round in ${SLICES} slices taking turns (${PROCESSES} processes a server, in blocks), median of ${ROUNDS} rounds | requests/s | p50 | p99 | errors |`,
    '|---|---:|---:|---:|---:|',
    row('sandbox directly', result.direct),
    row('a bare pass-through (no rules, the same HTTP client)', result.passThrough),
    row('through the proxy', result.proxy),
    row('through the proxy, OpenTelemetry on', result.proxyOtel),
    '',
    `The proxy against the pass-through (median of the rounds' ratios): ${result.ratio.toFixed(2)}×, with OpenTelemetry ${result.ratioOtel.toFixed(2)}× (goal ≥ 0.9× either way); proxy RSS after the run: ${Math.round(result.proxyRssMb)} MB`,
    '',
    `The rounds' ratios, in the order measured: ${result.rounds.map((r) => r.ratio.toFixed(2)).join(', ')}; with OpenTelemetry ${result.rounds.map((r) => r.ratioOtel.toFixed(2)).join(', ')}`,
    '',
    `Each process's requests/s (the median of its slices): pass-through ${result.processes.passThrough.map(Math.round).join(', ')}; proxy ${result.processes.proxy.map(Math.round).join(', ')}; with OpenTelemetry ${result.processes.proxyOtel.map(Math.round).join(', ')}`,
  ].join('\n');
}
