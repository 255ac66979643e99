import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, createServer, request as httpRequest, type RequestListener, type Server } from 'node:http';
import { matchOperation } from '../../src/protocol/operation-match.js';
import { OPERATIONS, OPERATION_IDS, buildPath } from '../../src/protocol/operations.js';
import { OPERATION_FIELDS, createProxyHandler } from '../../src/proxy/index.js';
import { listen } from './harness.js';

// A bounded fuzz run of the proxy: a few thousand generated requests (paths, methods, encodings,
// content types, bodies) against a service side that answers with hostile echoes of the token.
// Nothing outside the allow-list may reach the service, nothing but an operation's own fields may
// go up, and the token may be in no answer.

const TOKEN = 'fuzz-secret-Token-8c1f';
const RUNS = 3000;

/** mulberry32: a seeded generator, so a failing run can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = Number(process.env['FUZZ_SEED'] ?? 20261123);
const rand = random(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;

const ID = '0a1b2c3d-0000-4000-8000-000000000001';
const GOOD_PATHS = OPERATION_IDS.flatMap((id) =>
  (OPERATIONS[id].localized ? (['lt', 'en'] as const) : (['lt'] as const)).map((locale) => ({
    id,
    path: buildPath(id, { token: ID, sessionId: ID, documentId: ID }, locale),
  })),
);

const MUTATIONS: ((path: string) => string)[] = [
  (p) => p,
  (p) => p,
  (p) => `${p}?access_token=x`,
  (p) => `${p}#frag`,
  (p) => p.replace('/', '//'),
  (p) => p.replace(/\/([^/]+)$/, '/../$1'),
  (p) => p.replace(/\/([^/]+)$/, '/./$1'),
  (p) => p.replace('.json', '%2ejson'),
  (p) => p.replace(/\//g, '%2F'),
  (p) => p.replace('/', '/%2e%2e/'),
  (p) => p.toUpperCase(),
  (p) => `/en${p}`,
  (p) => `/en/en${p}`,
  (p) => p.replace('.json', '.json/'),
  (p) => p.replace('.json', '.json.json'),
  (p) => p.replace('.json', '.JSON'),
  (p) => `${p}%00`,
  (p) => p.replace(ID, `${ID}/../../api/document/upload`),
  (p) => p.replace(ID, '..'),
  (p) => p.replace(ID, 'a'.repeat(200)),
  (p) => p.replace(ID, 'ž'),
  (p) => p.replace('/', '\\'),
  (p) => `${p};x=1`,
  (p) => p.replace('mobile', 'mobile ').replace('smartid', 'smart%69d'),
  (p) => `/lt${p}`,
  (p) => p.slice(0, Math.max(1, Math.floor(rand() * p.length))),
];
const METHODS = ['POST', 'POST', 'POST', 'DELETE', 'DELETE', 'GET', 'PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'post', 'Delete'];
const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json-patch+json',
  '',
];

function fuzzBody(): string {
  const choice = rand();
  if (choice < 0.08) return '';
  if (choice < 0.14) return '{"a":';
  if (choice < 0.2) return '[1,2,3]';
  if (choice < 0.24) return `{"message":${'['.repeat(5000)}${']'.repeat(5000)}}`;
  const body: Record<string, unknown> = {};
  const keys = [
    'code',
    'country',
    'phone',
    'type',
    'message',
    'access_token',
    'ACCESS_TOKEN',
    'accessToken',
    'access_token ',
    'token',
    'pdf',
    'file',
    'signers',
    'signer',
    'document_id',
    'callback_url',
    'expire_after',
    'peps',
    '__proto__',
    'constructor',
  ];
  const values = [
    () => 'x',
    () => 40504040001,
    () => true,
    () => null,
    () => ['a'],
    () => ({ access_token: 'nested', files: [{ name: 'a.pdf', content: 'QUJD', access_token: 'n' }] }),
    () => 'EE',
  ];
  const count = Math.floor(rand() * 6);
  for (let i = 0; i < count; i++) body[pick(keys)] = pick(values)();
  return JSON.stringify(body);
}

interface Reached {
  method: string;
  path: string;
  body: string;
}

const reached: Reached[] = [];
const servers: Server[] = [];
let proxyUrl = '';

/** Echo answers: the token plain, escaped, as a key, in a header, and redirects. */
const HOSTILE: ((body: string) => { status: number; headers: Record<string, string>; text: string })[] = [
  (body) => ({ status: 200, headers: {}, text: `{"status":"ok","token":"${ID}","control_code":"1234","echo":${JSON.stringify(body)}}` }),
  () => ({ status: 200, headers: {}, text: `{"status":"error","message":"bad ${TOKEN.replace('-', '\\u002d')}"}` }),
  () => ({ status: 200, headers: {}, text: `{"status":"ok","${TOKEN.replace('T', '\\u0054')}":1}` }),
  () => ({ status: 200, headers: { 'x-token': TOKEN }, text: '{"status":"waiting"}' }),
  () => ({ status: 307, headers: { location: 'http://127.0.0.1:9/steal' }, text: '' }),
  () => ({ status: 500, headers: { 'content-type': 'text/html' }, text: `<p>${TOKEN}</p>` }),
  () => ({ status: 200, headers: {}, text: `{"status":"ok","peps_data":[{"full_name":"${TOKEN}"}]}` }),
];

before(async () => {
  const service = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      reached.push({ method: req.method ?? '', path: req.url ?? '', body });
      const answer = pick(HOSTILE)(body);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(answer.text);
    });
  });
  servers.push(service);
  const serviceUrl = await listen(service);
  const proxy = createServer(
    createProxyHandler({
      baseUrl: serviceUrl,
      accessToken: TOKEN,
      operations: 'all',
      authorize: () => true,
      rateLimit: false,
      visitor: () => 'fuzz-visitor',
    }) as RequestListener,
  );
  servers.push(proxy);
  proxyUrl = await listen(proxy);
});

after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const agent = new Agent({ keepAlive: true, maxSockets: 16 });

function sendRaw(method: string, path: string, contentType: string, body: string): Promise<{ status: number; text: string }> {
  const url = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-length': Buffer.byteLength(body) };
    if (contentType) headers['content-type'] = contentType;
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: text + JSON.stringify(res.headers) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe(`proxy fuzz run (${RUNS} requests, seed ${SEED})`, () => {
  it('forwards only allowed operations with their own fields, and never answers with the token', async () => {
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < RUNS) {
        next++;
        const base = pick(GOOD_PATHS);
        const path = rand() < 0.4 ? base.path : pick(MUTATIONS)(base.path);
        const method = rand() < 0.6 ? OPERATIONS[base.id].method : pick(METHODS);
        let answer;
        try {
          answer = await sendRaw(method, path, pick(CONTENT_TYPES), fuzzBody());
        } catch {
          continue; // a request Node itself refuses to send (an invalid path character)
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        assert.ok(!answer.text.includes(TOKEN), `token in the answer to ${method} ${path}`);
        assert.ok(answer.status >= 200 && answer.status < 600);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));

    assert.ok(reached.length > 100, `only ${reached.length} requests were allowed through: the run tests too little (${JSON.stringify([...statuses])})`);
    for (const request of reached) {
      // the GETs carry the proxy's token as their one query parameter, nothing else
      const [path = '', query] = request.path.split('?');
      const operation = matchOperation(request.method, path);
      assert.ok(operation, `${request.method} ${request.path} reached the service`);
      assert.equal(request.method, OPERATIONS[operation.id].method);
      if (request.method === 'GET') {
        assert.equal(query, `access_token=${encodeURIComponent(TOKEN)}`);
        assert.equal(request.body, '');
        continue;
      }
      assert.equal(query, undefined);
      const sent = JSON.parse(request.body) as Record<string, unknown>;
      assert.equal(sent['access_token'], TOKEN, "the proxy's own token, once");
      const allowed = new Set([...Object.keys(OPERATION_FIELDS[operation.id]), 'access_token']);
      for (const key of Object.keys(sent)) assert.ok(allowed.has(key), `${operation.id} got a field of its own: ${key}`);
      assert.ok(!JSON.stringify(sent).includes('nested'), 'no nested extra fields went up');
    }
    // the run exercised refusals and passes alike
    for (const status of [404, 415]) assert.ok((statuses.get(status) ?? 0) > 10, `few ${status} answers: ${JSON.stringify([...statuses])}`);
  });
});
