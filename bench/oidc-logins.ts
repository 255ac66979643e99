import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { createServer as netServer } from 'node:net';
import { createClient } from 'redis';
import { startProcess } from './proxy-throughput.js';

/*
 * `npm run bench:oidc`: whole OpenID Connect logins through esign-proxy beside oidc-provider alone
 * with esign-proxy's configuration (bench/oidc-bare.mjs), in one run on this machine, on loopback.
 *
 * A login, as a browser and a site's server make it: the authorization request, the login page,
 * (esign-proxy: the widget's Smart-ID start and its poll, the sandbox answering at once), the
 * page's POST that ends the interaction, the resumed authorization to the code, and the code
 * redeemed for tokens with the client's secret. The bare provider's login ends at its POST.
 *
 * Per setup (memory, Redis, two nodes on one Redis) and per number of logins at once (1, 10, 50),
 * the two servers take turns in slices (the machine's speed moves within a minute), each slice after
 * a warm-up of its own; each figure is the median slice's. Beside logins a second and the latencies:
 * the server processes' own CPU time a login (from /proc), Redis's commands a login (INFO
 * commandstats), and how late their event loops were (bench/loop-delay.mjs, p99 of a slice).
 */

const TOKEN = 'bench-oidc-access-token';
const SECRET = 'bench-client-secret-0123456789abcdef-0123';
const REDIRECT = 'http://127.0.0.1:9/callback';
/** ESIGN_BENCH_QUICK=1: one short round each, to see that the bench runs (its figures mean nothing). */
const QUICK = process.env['ESIGN_BENCH_QUICK'] === '1';
const CONCURRENCY = [1, 10, 50];
const ROUNDS = QUICK ? 1 : 3;
const SLICE_MS = QUICK ? 500 : 3_000;
const WARM_MS = QUICK ? 200 : 1_500;
const CLOCK_TICKS = 100;

const redisClient = (url: string) => createClient({ url });
type RedisClient = ReturnType<typeof redisClient>;

/** esign-proxy; the bare provider; `floor`: the bare provider and a pass-through Smart-ID session in one process (`--steps` only). */
type Kind = 'esign' | 'bare' | 'floor';
interface Node {
  child: ChildProcess;
  url: string;
  loopFile: string;
}
interface Measured {
  loginsPerS: number;
  p50: number;
  p95: number;
  p99: number;
  cpuMsPerLogin: number;
  /** What the sandbox (the service's stand-in, on the same cores) and the load itself spent a login. */
  sandboxCpuMsPerLogin: number;
  loadCpuMsPerLogin: number;
  redisPerLogin: number | null;
  loopP99: number;
  errors: number;
}

async function freePort(): Promise<number> {
  const server = netServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One HTTP exchange on a kept-alive connection: status, headers, text. */
function exchange(
  agent: Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; location: string | undefined; contentLocation: string | undefined; cookies: string[]; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method, agent, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            contentLocation: res.headers['content-location'],
            cookies: res.headers['set-cookie'] ?? [],
            text,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A browser's cookies, by name (a login's cookies do not collide across paths). */
class Jar {
  readonly #values = new Map<string, string>();
  keep(lines: string[]): void {
    for (const line of lines) {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      this.#values.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.#values].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** One whole login; the node for each request taken in turn (two nodes: any step may land on either). */
export async function login(kind: Kind, bases: string[], agents: Agent[], turn: { n: number }): Promise<void> {
  const pick = () => {
    const i = turn.n++ % bases.length;
    return { base: bases[i]!, agent: agents[i]! };
  };
  const jar = new Jar();
  const go = async (path: string, method = 'GET', body?: string, extra: Record<string, string> = {}, fromPage = true) => {
    const { base, agent } = pick();
    const url = new URL(path, base).href;
    const headers: Record<string, string> = { ...(fromPage ? { cookie: jar.header() } : {}), ...extra };
    if (method === 'POST' && fromPage) headers['origin'] = new URL(base).origin;
    const answer = await exchange(agent, url, method, headers, body);
    jar.keep(answer.cookies);
    return answer;
  };
  const json = { 'content-type': 'application/json' };
  const query = new URLSearchParams({
    client_id: 'bank',
    response_type: 'code',
    scope: 'openid profile nin',
    redirect_uri: REDIRECT,
    state: 'bench-state',
    nonce: 'bench-nonce',
  });
  const auth = await go(`/esign/oidc/auth?${query}`);
  // esign-proxy's page is the authorization's own answer, naming its interaction; the bare provider redirects to its page
  let interaction: string;
  if (auth.status === 200 && auth.contentLocation) interaction = auth.contentLocation;
  else if (auth.status === 303 && auth.location) {
    interaction = new URL(auth.location, bases[0]).pathname;
    const page = await go(interaction);
    if (page.status !== 200) throw new Error(`page: ${page.status}`);
  } else throw new Error(`auth: ${auth.status} ${auth.text.slice(0, 120)}`);
  let location: string | undefined;
  if (kind === 'esign') {
    // the page's widget sends its login through the interaction; the poll that finds it verified continues it
    const start = await go(`${interaction}/smartid/login.json`, 'POST', JSON.stringify({ code: '40504040001', country: 'EE' }), json);
    const token = (JSON.parse(start.text) as { token?: string }).token;
    if (!token) throw new Error(`start: ${start.status} ${start.text.slice(0, 120)}`);
    for (let i = 0; ; i++) {
      const poll = await go(`${interaction}/smartid/status/${token}.json`, 'POST', '{}', json);
      const status = (JSON.parse(poll.text) as { status?: string }).status;
      if (status === 'ok') break;
      if (status !== 'waiting' || i > 20) throw new Error(`poll: ${poll.status} ${poll.text.slice(0, 120)}`);
      await new Promise((resolve) => setTimeout(resolve, 550));
    }
    location = interaction.replace('/interaction/', '/auth/');
  } else {
    if (kind === 'floor') {
      // the same session through a pass-through with no rules: what a Smart-ID login costs at the least
      const start = await go('/esign/smartid/login.json', 'POST', JSON.stringify({ code: '40504040001', country: 'EE' }), json);
      const token = (JSON.parse(start.text) as { token?: string }).token;
      if (!token) throw new Error(`start: ${start.status} ${start.text.slice(0, 120)}`);
      const poll = await go(`/esign/smartid/status/${token}.json`, 'POST', '{}', json);
      if ((JSON.parse(poll.text) as { status?: string }).status !== 'ok') throw new Error(`poll: ${poll.status} ${poll.text.slice(0, 120)}`);
    }
    const ended = await go(`${interaction}/login`, 'POST', '{}', json);
    location = (JSON.parse(ended.text) as { location?: string }).location;
    if (!location) throw new Error(`interaction: ${ended.status} ${ended.text.slice(0, 120)}`);
  }
  for (let hops = 0; !location.startsWith(REDIRECT); hops++) {
    const next = await go(location);
    if (!next.location || hops > 5) throw new Error(`resume: ${next.status} ${next.text.slice(0, 120)}`);
    location = new URL(next.location, bases[0]).href;
  }
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code: ${location}`);
  const tokens = await go(
    '/esign/oidc/token',
    'POST',
    new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).toString(),
    { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`bank:${SECRET}`).toString('base64')}` },
    // the site's server redeems the code: no browser's cookie or origin
    false,
  );
  if (tokens.status !== 200 || !tokens.text.includes('id_token')) throw new Error(`token: ${tokens.status} ${tokens.text.slice(0, 120)}`);
}

/** A process's own CPU time so far, ms (user and system, from /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** How late a node's event loop was since it was last asked (bench/loop-delay.mjs). */
async function loopDelay(node: Node): Promise<{ p99: number }> {
  const was = existsSync(node.loopFile) ? readFileSync(node.loopFile, 'utf8') : '';
  const before = was ? (JSON.parse(was) as { count: number }).count : 0;
  node.child.kill('SIGUSR2');
  for (let i = 0; i < 100; i++) {
    const text = existsSync(node.loopFile) ? readFileSync(node.loopFile, 'utf8') : '';
    // (a file being written reads empty for a moment)
    const said = text ? (JSON.parse(text) as { count: number; p99: number }) : null;
    if (said && said.count > before) return said;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { p99: Number.NaN };
}

async function redisCalls(redis: RedisClient | null): Promise<number> {
  if (!redis) return 0;
  const info = await redis.info('commandstats');
  return [...info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)].reduce((sum, [, name, calls]) => (name === 'info' ? sum : sum + Number(calls)), 0);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** N logins at once for a while: the latencies, the errors, and what the servers and Redis spent. */
/** This process's own CPU time so far, ms. */
function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export async function slice(kind: Kind, nodes: Node[], n: number, ms: number, redis: RedisClient | null, sandboxPid?: number) {
  const agents = nodes.map(() => new Agent({ keepAlive: true, maxSockets: n }));
  const bases = nodes.map((node) => node.url);
  const turn = { n: 0 };
  await Promise.all(nodes.map((node) => loopDelay(node)));
  const cpu0 = nodes.reduce((sum, node) => sum + cpuMs(node.child.pid!), 0);
  const sandbox0 = sandboxPid ? cpuMs(sandboxPid) : 0;
  const load0 = ownCpuMs();
  const calls0 = await redisCalls(redis);
  const latencies: number[] = [];
  let errors = 0;
  let firstError = '';
  const end = Date.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (Date.now() < end) {
        const started = performance.now();
        try {
          await login(kind, bases, agents, turn);
          latencies.push(performance.now() - started);
        } catch (error) {
          errors++;
          firstError ||= String(error);
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = nodes.reduce((sum, node) => sum + cpuMs(node.child.pid!), 0) - cpu0;
  const sandboxCpu = sandboxPid ? cpuMs(sandboxPid) - sandbox0 : 0;
  const loadCpu = ownCpuMs() - load0;
  const calls = (await redisCalls(redis)) - calls0;
  const loops = await Promise.all(nodes.map((node) => loopDelay(node)));
  for (const agent of agents) agent.destroy();
  if (errors) console.error(`  ${kind}: ${errors} logins failed, the first: ${firstError}`);
  const sorted = latencies.sort((a, b) => a - b);
  return {
    loginsPerS: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    cpuMsPerLogin: cpu / Math.max(1, latencies.length),
    sandboxCpuMsPerLogin: sandboxCpu / Math.max(1, latencies.length),
    loadCpuMsPerLogin: loadCpu / Math.max(1, latencies.length),
    redisPerLogin: redis ? calls / Math.max(1, latencies.length) : null,
    loopP99: Math.max(...loops.map((loop) => loop.p99)),
    errors,
  };
}

function files(dir: string): { clients: string; keys: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(privateKey.export({ format: 'jwk' }) as Record<string, unknown>), alg: 'RS256', use: 'sig', kid: 'bench-key' };
  const clients = join(dir, 'clients.json');
  const keys = join(dir, 'keys.json');
  writeFileSync(
    clients,
    JSON.stringify([{ client_id: 'bank', client_secret: SECRET, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' }]),
  );
  writeFileSync(keys, JSON.stringify({ keys: [jwk] }));
  return { clients, keys };
}

export async function startNode(
  kind: Kind,
  dir: string,
  sandboxUrl: string,
  made: { clients: string; keys: string },
  redisUrl: string | null,
  name: string,
): Promise<Node> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}/esign/oidc`;
  const loopFile = join(dir, `loop-${name}.json`);
  const preload = ['--import', './bench/loop-delay.mjs', ...(process.env['ESIGN_BENCH_NODE_ARGS']?.split(' ').filter(Boolean) ?? [])];
  const env = { ...process.env, ESIGN_BENCH_LOOP_FILE: loopFile };
  const args =
    kind === 'esign'
      ? [...preload, 'dist/server/cli.js']
      : [...preload, 'bench/oidc-bare.mjs', issuer, made.clients, made.keys, ...(redisUrl ? [redisUrl] : [])];
  const own =
    kind === 'floor'
      ? { ESIGN_BENCH_SESSION_URL: sandboxUrl, ESIGN_BENCH_SESSION_TOKEN: TOKEN }
      : kind === 'bare'
        ? {}
        : {
            PORT: String(port),
            ESIGN_BASE_URL: sandboxUrl,
            ESIGN_ACCESS_TOKEN: TOKEN,
            ESIGN_OIDC_ISSUER: issuer,
            ESIGN_OIDC_CLIENTS: made.clients,
            ESIGN_OIDC_KEYS: made.keys,
            ESIGN_OIDC_SUBJECT_SECRET: 'bench-subject-secret-0123456789',
            ESIGN_VISITOR_SECRET: 'bench-visitor-secret-0123456789',
            ESIGN_RATE_LIMIT: '100000000,100000000,600,100000000',
            ...(redisUrl ? { ESIGN_REDIS_URL: redisUrl, ESIGN_REDIS_PREFIX: 'bench:' } : {}),
          };
  const child = spawn(process.execPath, args, { env: { ...env, ...own }, stdio: ['ignore', 'pipe', 'pipe'] });
  let said = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
  const ready = () => said.includes('listening on') || said.includes('bare provider on');
  for (let i = 0; i < 200 && !ready(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!ready()) throw new Error(`${kind} did not start: ${said.slice(0, 400)}`);
  // from here its lines (an event a request on stdout, the operator's on stderr) are read and dropped, as a log shipper would
  child.stdout.removeAllListeners('data').resume();
  child.stderr.removeAllListeners('data').resume();
  return { child, url: `http://127.0.0.1:${port}`, loopFile };
}

/** The bench's files (a client, its keys) in a folder of its own, and the sandbox answering at once. */
export async function benchWorld(): Promise<{ dir: string; made: { clients: string; keys: string }; sandbox: { child: ChildProcess; url: string } }> {
  const dir = mkdtempSync(join(tmpdir(), 'esign-bench-oidc-'));
  const sandbox = await startProcess(
    ['sandbox/bin/esign-sandbox.js', '--port', '0', '--access-token', TOKEN, '--answer-after', '0'],
    /(http:\/\/127\.0\.0\.1:\d+)/,
  );
  return { dir, made: files(dir), sandbox };
}

/** A redis-server of the bench's own on a free port, and a client of it once it answers. */
async function benchRedis(extra: string[] = []): Promise<{ url: string; child: ChildProcess; client: RedisClient }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const client = redisClient(url);
  client.on('error', () => undefined);
  for (let i = 0; ; i++) {
    try {
      await client.connect();
      return { url, child, client };
    } catch (error) {
      if (i > 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

export interface OidcSetupResult {
  setup: string;
  n: number;
  esign: Measured;
  bare: Measured;
  ratio: number;
  cpuRatio: number;
}

export async function measureOidcLogins(): Promise<OidcSetupResult[]> {
  const { dir, made, sandbox } = await benchWorld();
  const results: OidcSetupResult[] = [];
  const setups = [
    { name: 'memory, 1 node', redis: false, nodes: 1 },
    { name: 'Redis, 1 node', redis: true, nodes: 1 },
    { name: 'Redis, 2 nodes', redis: true, nodes: 2 },
  ];
  try {
    for (const setup of setups) {
      const own = setup.redis ? await benchRedis() : null;
      const redisUrl = own?.url ?? null;
      const redis = own?.client ?? null;
      const redisChild = own?.child ?? null;
      const nodes: Record<'esign' | 'bare', Node[]> = { esign: [], bare: [] };
      try {
        for (const kind of ['esign', 'bare'] as const)
          for (let i = 0; i < setup.nodes; i++)
            nodes[kind].push(await startNode(kind, dir, sandbox.url, made, redisUrl, `${kind}-${setup.redis ? 'r' : 'm'}-${setup.nodes}-${i}`));
        for (const n of CONCURRENCY) {
          const rounds: Record<'esign' | 'bare', Measured[]> = { esign: [], bare: [] };
          for (let round = 0; round < ROUNDS; round++) {
            for (const kind of round % 2 ? (['bare', 'esign'] as const) : (['esign', 'bare'] as const)) {
              await slice(kind, nodes[kind], n, WARM_MS, null);
              rounds[kind].push(await slice(kind, nodes[kind], n, SLICE_MS, redis, sandbox.child.pid));
            }
          }
          const pick = (kind: 'esign' | 'bare'): Measured => {
            const all = rounds[kind];
            const middle = [...all].sort((a, b) => a.loginsPerS - b.loginsPerS)[Math.floor(all.length / 2)]!;
            return {
              ...middle,
              cpuMsPerLogin: median(all.map((m) => m.cpuMsPerLogin)),
              sandboxCpuMsPerLogin: median(all.map((m) => m.sandboxCpuMsPerLogin)),
              loadCpuMsPerLogin: median(all.map((m) => m.loadCpuMsPerLogin)),
              errors: all.reduce((sum, m) => sum + m.errors, 0),
            };
          };
          const esign = pick('esign');
          const bare = pick('bare');
          const row = { setup: setup.name, n, esign, bare, ratio: esign.loginsPerS / bare.loginsPerS, cpuRatio: esign.cpuMsPerLogin / bare.cpuMsPerLogin };
          results.push(row);
          console.error(
            `${setup.name}, ${n} at once: ${esign.loginsPerS.toFixed(1)} against ${bare.loginsPerS.toFixed(1)} logins/s (${row.ratio.toFixed(2)}x)`,
          );
        }
      } finally {
        for (const node of [...nodes.esign, ...nodes.bare]) node.child.kill();
        await redis?.quit().catch(() => undefined);
        redisChild?.kill();
      }
    }
  } finally {
    sandbox.child.kill();
  }
  return results;
}

const round = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');

export function oidcTable(results: OidcSetupResult[]): string {
  const lines = [
    '| setup | at once | esign-proxy logins/s | bare provider logins/s | ratio | p50 / p95 / p99 ms (esign-proxy) | p50 / p95 / p99 ms (bare) | CPU ms a login (esign-proxy / bare) | CPU ratio | sandbox and load CPU ms a login (esign-proxy / bare) | Redis commands a login (esign-proxy / bare) | event loop p99 ms (esign-proxy / bare) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { setup, n, esign, bare, ratio, cpuRatio } of results) {
    const ms = (m: Measured) => `${round(m.p50, 0)} / ${round(m.p95, 0)} / ${round(m.p99, 0)}`;
    const redis = esign.redisPerLogin === null ? '–' : `${round(esign.redisPerLogin)} / ${round(bare.redisPerLogin ?? Number.NaN)}`;
    lines.push(
      `| ${setup} | ${n} | ${round(esign.loginsPerS)} | ${round(bare.loginsPerS)} | ${round(ratio, 2)}x | ${ms(esign)} | ${ms(bare)} | ${round(esign.cpuMsPerLogin)} / ${round(bare.cpuMsPerLogin)} | ${round(cpuRatio, 2)}x | ${round(esign.sandboxCpuMsPerLogin + esign.loadCpuMsPerLogin)} / ${round(bare.sandboxCpuMsPerLogin + bare.loadCpuMsPerLogin)} | ${redis} | ${round(esign.loopP99)} / ${round(bare.loopP99)} |`,
    );
  }
  return lines.join('\n');
}

/** `-- --trace`: the Redis commands of one whole esign-proxy login, in order, keys by family (what to cut). */
async function traceOneLogin(): Promise<void> {
  const { dir, made, sandbox } = await benchWorld();
  const { url, child: redisChild, client } = await benchRedis();
  await client.quit();
  const node = await startNode('esign', dir, sandbox.url, made, url, 'trace');
  const monitor = redisClient(url);
  monitor.on('error', () => undefined);
  await monitor.connect();
  const seen: string[] = [];
  await monitor.monitor((line) => seen.push(line));
  try {
    await login('esign', [node.url], [new Agent({ keepAlive: true })], { n: 0 });
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    node.child.kill();
    sandbox.child.kill();
    redisChild.kill();
  }
  const commands = seen.map((line) =>
    line
      .replace(/^[\d.]+ \[[^\]]+\] /, '')
      .replace(/"[A-Za-z0-9_-]{32,}"/g, '"<name>"')
      .slice(0, 90),
  );
  console.log(commands.map((command, i) => `${String(i + 1).padStart(3)} ${command}`).join('\n'));
}

/**
 * `-- --burst 800`: that many logins begun at once on one esign-proxy node on Redis, each begun
 * again after its Retry-After when the node turned its start away (as the widget's person would):
 * how many starts were turned away (429), how many requests found the store unavailable (503),
 * any other failure, and how long until every login had ended.
 */
async function burst(
  count: number,
): Promise<{ logins: number; ended: number; turnedAway: number; storeUnavailable: number; otherFailures: string[]; seconds: number }> {
  const { dir, made, sandbox } = await benchWorld();
  const { url, child: redisChild, client } = await benchRedis(['--maxclients', '10000']);
  await client.quit();
  const node = await startNode('esign', dir, sandbox.url, made, url, 'burst');
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  let turnedAway = 0;
  let storeUnavailable = 0;
  let ended = 0;
  const otherFailures: string[] = [];
  const t0 = performance.now();
  try {
    await Promise.all(
      Array.from({ length: count }, async () => {
        for (let attempt = 0; attempt < 20; attempt++) {
          try {
            await login('esign', [node.url], [agent], { n: 0 });
            ended++;
            return;
          } catch (error) {
            const said = String(error);
            if (said.includes('store-unavailable')) storeUnavailable++;
            if (/start: 429/.test(said)) {
              turnedAway++;
              await new Promise((resolve) => setTimeout(resolve, 2_000));
              continue;
            }
            if (!said.includes('store-unavailable')) otherFailures.push(said.slice(0, 160));
            return;
          }
        }
      }),
    );
  } finally {
    agent.destroy();
    node.child.kill();
    sandbox.child.kill();
    redisChild.kill();
  }
  return { logins: count, ended, turnedAway, storeUnavailable, otherFailures: otherFailures.slice(0, 5), seconds: (performance.now() - t0) / 1000 };
}

/** `-- --profile`: esign-proxy's CPU profile over 10 logins at once for 8 s (memory store): its functions by their own time. */
async function profile(): Promise<void> {
  const { dir, made, sandbox } = await benchWorld();
  process.env['ESIGN_BENCH_NODE_ARGS'] = `--cpu-prof --cpu-prof-dir=${dir}`;
  const node = await startNode('esign', dir, sandbox.url, made, null, 'profile');
  delete process.env['ESIGN_BENCH_NODE_ARGS'];
  try {
    await slice('esign', [node], 10, 2_000, null);
    await slice('esign', [node], 10, 8_000, null);
  } finally {
    const exited = new Promise((resolve) => node.child.once('exit', resolve));
    node.child.kill('SIGTERM');
    await exited;
    sandbox.child.kill();
  }
  const { readdirSync } = await import('node:fs');
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const { nodes, samples, timeDeltas } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const self = new Map<string, number>();
  samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const where = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*node_modules\//, '').replace(/^.*\/dist\//, 'dist/')}:${frame.lineNumber + 1}`;
    self.set(where, (self.get(where) ?? 0) + (timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byPackage = new Map<string, number>();
  for (const [where, us] of self) {
    const pkg = /^\S+ (@?[^/:]+(?:\/[^/:]+)?)/.exec(where)?.[1] ?? where;
    const key = where.includes(' dist/') ? `dist/${where.split(' dist/')[1]!.split(/[/:]/)[0]}` : where.startsWith('(') ? where.split(' ')[0]! : pkg;
    byPackage.set(key, (byPackage.get(key) ?? 0) + us);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  // the project's own functions with all they call (a function on a sample's stack counted once a sample)
  const inclusive = new Map<string, number>();
  samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (!frame.url.includes('/dist/')) continue;
      seen.add(`${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/dist\//, 'dist/')}:${frame.lineNumber + 1}`);
    }
    for (const where of seen) inclusive.set(where, (inclusive.get(where) ?? 0) + (timeDeltas[i] ?? 0));
  });
  console.log(
    `by function (own time):\n${top(self, 30)}\n\nby where:\n${top(byPackage, 20)}\n\nesign-proxy's functions with what they call:\n${top(inclusive, 40)}`,
  );
}

/**
 * `-- --steps`: one login at a time (memory store), each server's CPU time for each of its
 * exchanges (bench/cpu-by-step.mjs), esign-proxy beside the bare provider, and the sandbox's and
 * the load's CPU a login: where the difference between them lies, exchange by exchange.
 */
/** Where an exchange comes in a login, by its method and path. */
const STEP_ORDER = [
  / \/esign\/oidc\/auth$/,
  /\/interaction\/:id$/,
  /login\.json$/,
  /status\/:id\.json$/,
  /\/interaction\/:id\/login$/,
  /\/auth\/:id$/,
  /\/token$/,
];
const STEP_LABELS = [
  'GET `<issuer>/auth` (esign-proxy: with the page)',
  'GET `<issuer>/interaction/:id` (the page)',
  'POST `…/smartid/login.json` (the start, and its call to the service)',
  'POST `…/smartid/status/:id.json` (the poll, its call; esign-proxy: the login continued)',
  'POST `<issuer>/interaction/:id/login` (the login ended)',
  'GET `<issuer>/auth/:id` (to the code)',
  'POST `<issuer>/token`',
  'any other',
];
const stepOrder = (step: string) => {
  const at = STEP_ORDER.findIndex((pattern) => pattern.test(step));
  return at === -1 ? STEP_ORDER.length : at;
};

async function steps(): Promise<void> {
  const { dir, made, sandbox } = await benchWorld();
  const nodes = {} as Record<Kind, Node & { stepsFile: string }>;
  const KINDS = ['esign', 'bare', 'floor'] as const;
  for (const kind of KINDS) {
    const stepsFile = join(dir, `steps-${kind}.json`);
    process.env['ESIGN_BENCH_NODE_ARGS'] = '--import ./bench/cpu-by-step.mjs';
    process.env['ESIGN_BENCH_STEPS_FILE'] = stepsFile;
    nodes[kind] = { ...(await startNode(kind, dir, sandbox.url, made, null, `steps-${kind}`)), stepsFile };
  }
  delete process.env['ESIGN_BENCH_NODE_ARGS'];
  delete process.env['ESIGN_BENCH_STEPS_FILE'];
  const LOGINS = QUICK ? 50 : 1_000;
  const read = async (node: Node & { stepsFile: string }) => {
    const before = existsSync(node.stepsFile) ? readFileSync(node.stepsFile, 'utf8') : '';
    node.child.kill('SIGUSR1');
    for (let i = 0; i < 100; i++) {
      const text = existsSync(node.stepsFile) ? readFileSync(node.stepsFile, 'utf8') : '';
      if (text && text !== before) return JSON.parse(text) as Record<string, { count: number; ms: number }>;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error('no steps written');
  };
  const measured = {} as Record<Kind, { steps: Record<string, { count: number; ms: number }>; sandboxMs: number; loadMs: number }>;
  // the servers take turns in rounds (the machine's speed moves within a minute); each step's mean over all rounds
  const ROUNDS = 10;
  const agents = Object.fromEntries(KINDS.map((kind) => [kind, new Agent({ keepAlive: true, maxSockets: 1 })])) as Record<Kind, Agent>;
  const totals = Object.fromEntries(KINDS.map((kind) => [kind, { steps: new Map<string, { count: number; ms: number }>(), sandboxMs: 0, loadMs: 0 }]));
  try {
    // each server's code warmed before it is measured (ESIGN_BENCH_WARM_LOGINS: how many logins)
    const warm = Number(process.env['ESIGN_BENCH_WARM_LOGINS'] ?? LOGINS / 4);
    for (const kind of KINDS) {
      for (let i = 0; i < warm; i++) await login(kind, [nodes[kind].url], [agents[kind]], { n: 0 });
      await read(nodes[kind]).catch(() => ({}));
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of [...KINDS.slice(round % KINDS.length), ...KINDS.slice(0, round % KINDS.length)]) {
        const total = totals[kind]!;
        const sandbox0 = cpuMs(sandbox.child.pid!);
        const load0 = ownCpuMs();
        for (let i = 0; i < LOGINS / ROUNDS; i++) await login(kind, [nodes[kind].url], [agents[kind]], { n: 0 });
        total.sandboxMs += cpuMs(sandbox.child.pid!) - sandbox0;
        total.loadMs += ownCpuMs() - load0;
        for (const [step, { count, ms }] of Object.entries(await read(nodes[kind]))) {
          const seen = total.steps.get(step) ?? { count: 0, ms: 0 };
          total.steps.set(step, { count: seen.count + count, ms: seen.ms + ms * count });
        }
      }
    }
    for (const kind of KINDS) {
      const total = totals[kind]!;
      measured[kind] = {
        steps: Object.fromEntries([...total.steps].map(([step, { count, ms }]) => [step, { count, ms: ms / count }])),
        sandboxMs: total.sandboxMs / LOGINS,
        loadMs: total.loadMs / LOGINS,
      };
    }
  } finally {
    for (const agent of Object.values(agents)) agent.destroy();
    for (const node of Object.values(nodes)) node.child.kill();
    sandbox.child.kill();
  }
  const lines = ['| exchange | esign-proxy CPU ms | bare CPU ms | bare and a pass-through session CPU ms |', '|---|---:|---:|---:|'];
  // each server's exchanges by what they are in a login (the paths differ: esign-proxy's session goes through the interaction)
  const byExchange = (kind: Kind) => {
    const sums = new Map<number, number>();
    for (const [step, { ms }] of Object.entries(measured[kind].steps)) sums.set(stepOrder(step), (sums.get(stepOrder(step)) ?? 0) + ms);
    return sums;
  };
  const all = { esign: byExchange('esign'), bare: byExchange('bare'), floor: byExchange('floor') };
  const cell = (ms: number | undefined) => (ms === undefined ? '–' : ms.toFixed(2));
  const sum = (kind: Kind) => [...all[kind].values()].reduce((a, b) => a + b, 0).toFixed(2);
  for (const [i, label] of STEP_LABELS.entries()) {
    if (!all.esign.has(i) && !all.bare.has(i) && !all.floor.has(i)) continue;
    lines.push(`| ${label} | ${cell(all.esign.get(i))} | ${cell(all.bare.get(i))} | ${cell(all.floor.get(i))} |`);
  }
  lines.push(`| **a login, the servers' exchanges** | **${sum('esign')}** | **${sum('bare')}** | **${sum('floor')}** |`);
  lines.push(
    `| the sandbox, a login | ${measured.esign.sandboxMs.toFixed(2)} | ${measured.bare.sandboxMs.toFixed(2)} | ${measured.floor.sandboxMs.toFixed(2)} |`,
  );
  lines.push(
    `| the load (browser and site), a login | ${measured.esign.loadMs.toFixed(2)} | ${measured.bare.loadMs.toFixed(2)} | ${measured.floor.loadMs.toFixed(2)} |`,
  );
  console.log(lines.join('\n'));
}

const burstAt = process.argv.indexOf('--burst');
if (process.argv[1]?.endsWith('oidc-logins.ts') && process.argv.includes('--profile')) await profile();
else if (process.argv[1]?.endsWith('oidc-logins.ts') && process.argv.includes('--steps')) await steps();
else if (process.argv[1]?.endsWith('oidc-logins.ts') && burstAt > 0) {
  const result = await burst(Number(process.argv[burstAt + 1] ?? 800));
  console.log(JSON.stringify(result, null, 2));
} else if (process.argv[1]?.endsWith('oidc-logins.ts') && process.argv.includes('--trace')) await traceOneLogin();
else if (process.argv[1]?.endsWith('oidc-logins.ts')) {
  const results = await measureOidcLogins();
  console.log(oidcTable(results));
  // a quick run's figures mean nothing: they are printed, never kept
  if (!QUICK) writeFileSync('bench/results-oidc.json', `${JSON.stringify({ measuredAt: new Date().toISOString(), results }, null, 2)}\n`);
}
