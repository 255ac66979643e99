/*
 * The floor of bench/oidc-logins.ts: oidc-provider alone, with esign-proxy's configuration (its
 * claims and scopes, lifetimes, features, client defaults, PKCE rule, the same clients and keys),
 * mounted where esign-proxy mounts it, and a login that ends at once: the interaction's POST gives
 * the grant and the result, as esign-proxy's does after a verified login, with no widget and no service.
 *
 *   node bench/oidc-bare.mjs <issuer> <clients.json> <keys.json> [<redis-url>]
 *
 * Prints `bare provider on <url>` once it listens. With a Redis URL its entries go to Redis (a
 * plain adapter of the library's kind: JSON with a lifetime, an index for uids and grants). With
 * ESIGN_BENCH_SESSION_URL and _TOKEN it also passes `/esign/…` on to that service with no rules
 * (bench/server-modes.mjs): a Smart-ID session at its least, for `npm run bench:oidc -- --steps`.
 */
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import Provider, { interactionPolicy } from 'oidc-provider';
import { CLAIMS_BY_SCOPE } from '../dist/server/oidc/claims.js';
import { createUpstream } from '../dist/proxy/upstream.js';
import { passThrough } from './server-modes.mjs';

const [issuer, clientsFile, keysFile, redisUrl] = process.argv.slice(2);
const mount = new URL(issuer).pathname;
const clients = JSON.parse(readFileSync(clientsFile, 'utf8'));
const jwks = JSON.parse(readFileSync(keysFile, 'utf8'));
const PERSON = { given_name: 'OK', family_name: 'TESTNUMBER', nin: '40504040001', birthdate: '1905-04-04' };
const lifetimes = { AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 };

async function redisAdapter(url) {
  const { createClient } = await import('redis');
  const client = createClient({ url });
  await client.connect();
  const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);
  return class RedisAdapter {
    constructor(name) {
      this.name = name;
    }
    key(id) {
      return `bare:${this.name}:${id}`;
    }
    async upsert(id, payload, expiresIn) {
      const writes = [client.set(this.key(id), JSON.stringify(payload), { EX: expiresIn })];
      if (payload.uid) writes.push(client.set(`bare:uid:${payload.uid}`, id, { EX: expiresIn }));
      if (GRANTABLE.has(this.name) && payload.grantId) {
        writes.push(client.rPush(`bare:grant:${payload.grantId}`, this.key(id)), client.expire(`bare:grant:${payload.grantId}`, expiresIn));
      }
      await Promise.all(writes);
    }
    async find(id) {
      const text = await client.get(this.key(id));
      return text ? JSON.parse(text) : undefined;
    }
    async findByUid(uid) {
      const id = await client.get(`bare:uid:${uid}`);
      return id ? this.find(id) : undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id) {
      const text = await client.get(this.key(id));
      if (text) await client.set(this.key(id), JSON.stringify({ ...JSON.parse(text), consumed: Math.floor(Date.now() / 1000) }), { KEEPTTL: true });
    }
    async destroy(id) {
      await client.del(this.key(id));
    }
    async revokeByGrantId(grantId) {
      const keys = await client.lRange(`bare:grant:${grantId}`, 0, -1);
      if (keys.length) await client.del(keys);
      await client.del(`bare:grant:${grantId}`);
    }
  };
}

const policy = interactionPolicy.base();
const provider = new Provider(issuer, {
  ...(redisUrl ? { adapter: await redisAdapter(redisUrl) } : {}),
  clients,
  jwks,
  cookies: { keys: ['bench-cookie-key-0123456789abcdef'] },
  claims: { sid: null, iss: null, ...Object.fromEntries(Object.entries(CLAIMS_BY_SCOPE).map(([scope, claims]) => [scope, [...claims]])) },
  scopes: Object.keys(CLAIMS_BY_SCOPE),
  conformIdTokenClaims: false,
  responseTypes: ['code'],
  clientDefaults: { grant_types: ['authorization_code'], response_types: ['code'], id_token_signed_response_alg: 'RS256' },
  pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
  features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
  ttl: lifetimes,
  expiresWithSession: () => false,
  interactions: { policy, url: (_ctx, interaction) => `${mount}/interaction/${interaction.uid}` },
  findAccount: async (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...PERSON }) }),
});
provider.proxy = true;
const callback = provider.callback();

/** The interaction: a page of a few bytes, and a POST that logs the person in at once. */
async function interaction(req, res, uid, login) {
  if (!login) {
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>log in</title><p>${uid}</p>`);
    return;
  }
  req.resume();
  await new Promise((resolve) => req.on('end', resolve));
  const details = await provider.interactionDetails(req, res);
  const grant = new provider.Grant({ accountId: 'bench-person', clientId: String(details.params.client_id) });
  grant.addOIDCScope(String(details.params.scope));
  const grantId = await grant.save();
  const location = await provider.interactionResult(
    req,
    res,
    { login: { accountId: 'bench-person', amr: ['swk', 'pin', 'mfa'] }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ location }));
}

const sessionUrl = process.env.ESIGN_BENCH_SESSION_URL;
const session = sessionUrl
  ? passThrough(createUpstream({ baseUrl: sessionUrl, timeoutMs: 60_000, answerLimit: 1024 * 1024 }), process.env.ESIGN_BENCH_SESSION_TOKEN)
  : null;

const server = createServer((req, res) => {
  const path = (req.url ?? '').split('?')[0];
  if (session && path.startsWith('/esign/') && !path.startsWith(`${mount}/`)) {
    req.url = req.url.slice('/esign'.length);
    session(req, res);
    return;
  }
  const asked = new RegExp(`^${mount}/interaction/([^/]+)(/login)?$`).exec(path);
  if (asked) {
    interaction(req, res, asked[1], Boolean(asked[2])).catch((error) => res.writeHead(500).end(String(error)));
    return;
  }
  req.headers['x-forwarded-proto'] = new URL(issuer).protocol.slice(0, -1);
  req.originalUrl = req.url;
  req.url = req.url.slice(mount.length) || '/';
  callback(req, res);
});
server.listen(Number(new URL(issuer).port), '127.0.0.1', () => console.log(`bare provider on ${new URL(issuer).origin}`));
