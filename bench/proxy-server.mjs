import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';
import { passThrough, registerOpenTelemetry } from './server-modes.mjs';

/*
 * A server of the throughput and CPU benches, in a process of its own:
 *   node bench/proxy-server.mjs <service-url> <token> proxy|proxy-otel|pass-through [<built dir>]
 * The proxy comes from dist/, or from another build of it (bench/proxy-cpu.ts compares two).
 * `proxy`: the built proxy, its telemetry off. `proxy-otel`: the same with OpenTelemetry's SDK
 * registered (spans batched to an exporter that drops them, metrics kept in memory). `pass-through`:
 * no rules at all, the same HTTP client to the service: the floor the proxy is measured against.
 */
const [baseUrl, accessToken, mode = 'proxy', built] = process.argv.slice(2);
const from = built ? pathToFileURL(`${built}/`).href : new URL('../dist/', import.meta.url).href;
const { createProxyHandler } = await import(`${from}proxy/index.js`);
const { createUpstream } = await import(`${from}proxy/upstream.js`);

if (mode === 'proxy-otel') await registerOpenTelemetry();

const handle =
  mode === 'pass-through'
    ? passThrough(createUpstream({ baseUrl, timeoutMs: 60_000, answerLimit: 1024 * 1024 }), accessToken)
    : // every poll forwarded (no poll floor), as the pass-through forwards every one
      createProxyHandler({ baseUrl, accessToken, rateLimit: false, minPollIntervalMs: 0, openTelemetry: mode === 'proxy-otel' });

let served = 0;
const server = createServer((req, res) => {
  if (req.url === '/__rss') {
    res.end(String(process.memoryUsage().rss));
    return;
  }
  if (req.url === '/__cpu') {
    const { user, system } = process.cpuUsage();
    res.end(JSON.stringify({ cpuUs: user + system, requests: served }));
    return;
  }
  served++;
  handle(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`proxy on http://127.0.0.1:${server.address().port}`));
process.on('SIGINT', () => process.exit(0));
