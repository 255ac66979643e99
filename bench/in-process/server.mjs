import { register } from 'node:module';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Duplex } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { passThrough, registerOpenTelemetry } from '../server-modes.mjs';

/*
 * One server of bench/proxy-in-process.ts, in a process of its own:
 *   node bench/in-process/server.mjs proxy|proxy-otel|pass-through [<built dir>] <rounds> <polls a round>
 * Status polls are handed to the server's (req, res) handler as node:http request and response
 * objects on a socket that keeps what is written, CONCURRENT at a time, the service answering
 * at once (hooks.mjs). It prints the CPU time a poll of each round, in µs, as a JSON array
 * (with ESIGN_BENCH_WHAT=starts, a session start's).
 */
const [mode, built, rounds = '10', polls = '50000'] = process.argv.slice(2);
const CONCURRENT = 32;
register('./hooks.mjs', import.meta.url);
const from = built ? pathToFileURL(`${built}/`).href : new URL('../../dist/', import.meta.url).href;

if (mode === 'proxy-otel') await registerOpenTelemetry();
const { createProxyHandler } = await import(`${from}proxy/index.js`);
const { createUpstream } = await import(`${from}proxy/upstream.js`);

const handle =
  mode === 'pass-through'
    ? passThrough(createUpstream({}), 'bench-access-token')
    : createProxyHandler({ baseUrl: 'http://127.0.0.1:9', accessToken: 'bench-access-token', rateLimit: false, minPollIntervalMs: 0, openTelemetry: mode === 'proxy-otel' });

class Socket extends Duplex {
  written = '';
  _write(chunk, _encoding, done) {
    this.written += chunk;
    done();
  }
  _read() {}
}

/** One request through the handler: its status and everything written for it (status line, headers, body). */
function send(url, body, headers) {
  return new Promise((resolve) => {
    const socket = new Socket();
    const req = new IncomingMessage(socket);
    Object.assign(req, { method: 'POST', url, httpVersion: '1.1', httpVersionMajor: 1, httpVersionMinor: 1 });
    req.headers = { host: '127.0.0.1:8080', 'content-type': 'application/json', 'user-agent': 'bench', 'content-length': String(body.length), ...headers };
    const res = new ServerResponse(req);
    res.shouldKeepAlive = true;
    res.assignSocket(socket);
    res.on('finish', () => {
      res.detachSocket(socket);
      resolve({ status: res.statusCode, written: socket.written });
    });
    handle(req, res);
    req.push(body);
    req.complete = true;
    req.push(null);
  });
}

const started = await send('/smartid/login.json', Buffer.from('{"code":"40504040001","country":"EE"}'), {});
const token = /"token":"([^"]+)"/.exec(started.written)?.[1];
const cookie = /set-cookie: ([^;\r]+)/i.exec(started.written)?.[1];
if (!token) throw new Error(`no session started: ${started.written}`);
const pollUrl = `/smartid/status/${token}.json`;
const pollBody = Buffer.from('{}');
const pollHeaders = cookie ? { cookie } : {};
async function poll() {
  const { status, written } = await send(pollUrl, pollBody, pollHeaders);
  if (status !== 200 || !written.includes('waiting')) throw new Error(`a poll was answered ${status}: ${written}`);
}

/** `ESIGN_BENCH_WHAT=starts`: session starts instead, each of a new visitor (its id minted, its session bound). */
const startBody = Buffer.from('{"code":"40504040001","country":"EE"}');
async function start() {
  const { status, written } = await send('/smartid/login.json', startBody, {});
  if (status !== 200 || !written.includes('"token"')) throw new Error(`a start was answered ${status}: ${written}`);
}
const each = process.env.ESIGN_BENCH_WHAT === 'starts' ? start : poll;

const perPoll = [];
for (let round = 0; round < Number(rounds); round++) {
  const before = process.cpuUsage();
  for (let i = 0; i < Number(polls); i += CONCURRENT) {
    await Promise.all(Array.from({ length: CONCURRENT }, each));
    // a turn of the event loop between bursts, as a server has between reads
    await new Promise((next) => setImmediate(next));
  }
  const used = process.cpuUsage(before);
  perPoll.push((used.user + used.system) / Number(polls));
}
console.log(JSON.stringify(perPoll));
process.exit(0);
