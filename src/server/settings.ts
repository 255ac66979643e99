import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { webhookKeys } from './webhook.js';
import { DEFAULT_RATE_LIMITS } from '../protocol/proxy-rules.js';
import { DEFAULT_STORE_TIMEOUT } from '../proxy/options.js';

/*
 * `esign-proxy`'s settings: environment variables named as the PHP proxy names its own,
 * and a flag for each. A bad setting stops the server at start with a sentence that names it.
 */

export interface ServerSettings {
  baseUrl: string;
  accessToken: string;
  prefix: string;
  port: number;
  host: string;
  allowedOrigins: string[];
  publicScheme: 'https' | 'http' | undefined;
  redisUrl: string | undefined;
  /** Several Redis Cluster nodes, by URL. */
  redisClusterUrls: string[];
  eventSecret: string | undefined;
  /** A header of the host's edge whose request id the proxy takes (else it mints one). */
  trustRequestIdHeader: string | undefined;
  visitorSecret: string | undefined;
  exposeScreening: boolean;
  /** The browser's address from X-Forwarded-For's last hop (the one nginx or the balancer in front added), for the per-address limit. */
  trustProxy: boolean;
  /** Serve the widget's script-tag files under `<prefix>/cdn/`. */
  serveWidget: boolean;
  /** How long SIGTERM waits for requests in flight (their result hooks), ms. */
  shutdownMs: number;
  /** Where the verified results go, signed as Standard Webhooks deliveries. */
  webhookUrl: string | undefined;
  /** The keys of the `whsec_` secrets, the current one first. */
  webhookKeys: Buffer[];
  /** Where the signing gate asks who is signed in. */
  signerUrl: string | undefined;
  /** The host's session cookie by name, as the visitor (kept as a keyed digest). */
  visitorCookie: string | undefined;
  /** How long the host may take to take a result, ms. */
  resultTimeoutMs: number;
  /** How long one call of the store (Redis) may take before its request is refused 503, ms. */
  storeTimeoutMs: number;
  /** The browser's cookies the signer question carries, by name; empty: every one but the proxy's own. */
  forwardCookies: string[];
  /** Plain http:// webhook and signer URLs on another machine, allowed by the operator's word. */
  allowPlainHttp: boolean;
  /** The start limits, where the operator sets them (ESIGN_RATE_LIMIT). */
  rateLimit: { visitor: number; person: number; windowMs: number; address: number | undefined } | undefined;
  /** What every Redis key of this site begins with. */
  redisPrefix: string;
  /** esign-proxy as an OpenID Provider: its issuer, its clients and its signing keys (read at start). */
  oidc: OidcSettings | undefined;
}

export interface OidcSettings {
  /** The issuer URL, under the prefix: `https://site.example/esign/oidc`. */
  issuer: string;
  /** The clients' registration metadata, as the file holds it (the provider library checks each). */
  clients: Record<string, unknown>[];
  /** The private JWKS every node signs with; null: a key made at start (development only). */
  keys: { keys: Record<string, unknown>[] } | null;
  /** The key of the `sub` digest (a person's country and code): stable for as long as the site keeps it. */
  subjectSecret: string;
  /** Where `sub`'s key came from: a warning is said when it is not a setting of its own. */
  subjectSecretFrom: 'setting' | 'visitor secret' | 'access token';
  /** A stylesheet of the site's look for the hosted login page (custom properties and parts), as text. */
  stylesheet: string | null;
  /** How long an authorization code can be redeemed, in seconds (60 unless set). */
  codeLifetimeS: number;
}

interface Setting {
  env: string;
  flag: string;
  what: string;
}

/** Every setting, for --help and for the sentences that name one. */
/** The default start limits as ESIGN_RATE_LIMIT writes them (the rules' numbers, said once). */
const DEFAULT_LIMITS_TEXT = [DEFAULT_RATE_LIMITS.perVisitor.limit, DEFAULT_RATE_LIMITS.perPerson.limit, DEFAULT_RATE_LIMITS.perPerson.windowMs / 1000].join(
  ',',
);

export const SETTINGS: readonly Setting[] = [
  { env: 'ESIGN_BASE_URL', flag: '--base-url', what: "the service's address, e.g. https://service.example (the sandbox's: npx esign-sandbox). Required." },
  {
    env: 'ESIGN_ACCESS_TOKEN',
    flag: '--access-token',
    what: "the service's secret access token, 8 characters or more. Required; never logged. Prefer the environment to the flag.",
  },
  { env: 'ESIGN_PREFIX', flag: '--prefix', what: "the path the widget's endpoint points at. Default /esign." },
  { env: 'PORT', flag: '--port', what: 'the port to listen on. Default 8787.' },
  { env: 'ESIGN_HOST', flag: '--host', what: 'the address to listen on. Default 127.0.0.1 (behind nginx on the same machine); 0.0.0.0 for every address.' },
  {
    env: 'ESIGN_ALLOWED_ORIGINS',
    flag: '--allowed-origins',
    what: "other sites' origins allowed to call, comma-separated (a host that answers CORS itself in front). Default none.",
  },
  {
    env: 'ESIGN_PUBLIC_SCHEME',
    flag: '--public-scheme',
    what: "https or http: the scheme the browser reaches the site by, where TLS ends in front (nginx, a balancer). The one setting for the proxy and the OpenID Provider alike: https marks every cookie Secure, names the visitor cookie __Host-esign-visitor and sends the login's last step to https://. Required as https with an https:// ESIGN_OIDC_ISSUER. Default: pages taken as https (http too on a loopback address), cookies not Secure.",
  },
  {
    env: 'ESIGN_REDIS_URL',
    flag: '--redis-url',
    what: "a Redis server for the state of several instances, e.g. redis://127.0.0.1:6379. Default: this process's memory.",
  },
  { env: 'ESIGN_REDIS_CLUSTER', flag: '--redis-cluster', what: 'Redis Cluster nodes instead, comma-separated URLs.' },
  {
    env: 'ESIGN_EVENT_SECRET',
    flag: '--event-secret',
    what: 'the key of the digests events show a person and a visitor by. Default: the access token (the person then masked).',
  },
  {
    env: 'ESIGN_TRUST_REQUEST_ID_HEADER',
    flag: '--trust-request-id-header',
    what: "a header your edge sets and overwrites (x-request-id, nginx's $request_id) whose id each request keeps. Default: none, the proxy mints one.",
  },
  {
    env: 'ESIGN_VISITOR_SECRET',
    flag: '--visitor-secret',
    what: 'the key the visitor cookie is signed with; the same for every instance. Default: the access token.',
  },
  { env: 'ESIGN_EXPOSE_SCREENING', flag: '--expose-screening', what: '1 passes PEP and sanctions data to the browser. Default 0.' },
  {
    env: 'ESIGN_TRUST_PROXY',
    flag: '--trust-proxy',
    what: "1 when nginx or a balancer in front adds X-Forwarded-For: its last hop is the browser's address, for the per-address limits (session starts, and the OpenID Provider's failed client logins), and the OpenID Provider takes X-Forwarded-Host for the site's host. The scheme is never taken from a header: ESIGN_PUBLIC_SCHEME says it. Default 0 (no per-address limit).",
  },
  {
    env: 'ESIGN_SERVE_WIDGET',
    flag: '--serve-widget',
    what: "1 serves the widget's script-tag files under <prefix>/cdn/ (a static site needs nothing else). Default 1.",
  },
  {
    env: 'ESIGN_WEBHOOK_URL',
    flag: '--webhook-url',
    what: 'where each verified result is POSTed, signed as a Standard Webhooks delivery, before the browser sees it: a fact (a signed file, a document), with no cookie of the browser and nothing of the answer passed on (no delivery logs anyone in). Default none.',
  },
  {
    env: 'ESIGN_WEBHOOK_SECRET',
    flag: '--webhook-secret',
    what: 'the whsec_ secret the deliveries are signed with (make one: echo whsec_$(openssl rand -base64 32)); several, comma-separated, the new one first, while one is rotated (each signs). Required with a webhook or signer URL.',
  },
  {
    env: 'ESIGN_SIGNER_URL',
    flag: '--signer-url',
    what: 'signing only as the person signed in: the server asks this URL (a signed POST with the browser\'s cookies), which answers {"country","code"} or null. Default none: no gate.',
  },
  {
    env: 'ESIGN_VISITOR_COOKIE',
    flag: '--visitor-cookie',
    what: "the name of the site's own session cookie, to be the visitor (kept only as a keyed digest). Default: a cookie of the proxy's own.",
  },
  {
    env: 'ESIGN_STORE_TIMEOUT_MS',
    flag: '--store-timeout-ms',
    what: `how long one call of the store (Redis) may take, ms, before its request is refused 503 store-unavailable: 50 to 30000. Default ${DEFAULT_STORE_TIMEOUT} (time the node itself was too busy to read the answer does not count).`,
  },
  {
    env: 'ESIGN_RESULT_TIMEOUT_MS',
    flag: '--result-timeout-ms',
    what: 'how long the webhook may take to take a result, ms; after it the browser is told to try again. Default 30000.',
  },
  {
    env: 'ESIGN_FORWARD_COOKIES',
    flag: '--forward-cookies',
    what: "the browser's cookies the signer question carries, comma-separated names (your session cookie). Default: the ESIGN_VISITOR_COOKIE name when set, else every cookie but the proxy's own.",
  },
  {
    env: 'ESIGN_ALLOW_PLAIN_HTTP',
    flag: '--allow-plain-http',
    what: '1 allows http:// webhook and signer URLs on another machine (a private network you trust). Default 0: https://, or http:// on a loopback address only.',
  },
  {
    env: 'ESIGN_RATE_LIMIT',
    flag: '--rate-limit',
    what: `session starts allowed "visitor,person,window[,address]": per visitor, per person, the window in seconds, per address, e.g. ${DEFAULT_LIMITS_TEXT} (the default: ${DEFAULT_RATE_LIMITS.perVisitor.limit} and ${DEFAULT_RATE_LIMITS.perPerson.limit} in ${DEFAULT_RATE_LIMITS.perPerson.windowMs / 60_000} minutes, ${DEFAULT_RATE_LIMITS.perAddress.limit} per address).`,
  },
  {
    env: 'ESIGN_REDIS_PREFIX',
    flag: '--redis-prefix',
    what: 'what every Redis key of this site begins with, so that sites sharing a Redis share nothing. Default: esign-proxy: and a digest of the access token.',
  },
  {
    env: 'ESIGN_OIDC_ISSUER',
    flag: '--oidc-issuer',
    what: "makes esign-proxy an OpenID Provider with this issuer URL, under the prefix (https://site.example/esign/oidc): a site logs a person in with its stack's OpenID Connect client. Default none.",
  },
  {
    env: 'ESIGN_OIDC_CLIENTS',
    flag: '--oidc-clients',
    what: 'a JSON file: an array of client registrations (client_id, client_secret of 32 characters or more, redirect_uris, token_endpoint_auth_method, client_name). Required with ESIGN_OIDC_ISSUER.',
  },
  {
    env: 'ESIGN_OIDC_KEYS',
    flag: '--oidc-keys',
    what: 'a JSON file: the private JWKS the ID tokens are signed with, the same on every node. Default: a key made at start, for development only (a restart or a second node makes ID tokens no client can check).',
  },
  {
    env: 'ESIGN_OIDC_SUBJECT_SECRET',
    flag: '--oidc-subject-secret',
    what: "the key of sub, a digest of the person's country and code: keep it for as long as your users are kept. Default: ESIGN_VISITOR_SECRET, else the access token (a new token would give every person a new sub).",
  },
  {
    env: 'ESIGN_OIDC_CODE_LIFETIME',
    flag: '--oidc-code-lifetime',
    what: 'how many seconds an authorization code can be redeemed, once: 1 to 600. Default 60 (a relying party redeems it at once; longer only widens the window of a stolen code).',
  },
  {
    env: 'ESIGN_OIDC_STYLESHEET',
    flag: '--oidc-stylesheet',
    what: "a CSS file of your site's look for the hosted login page (the documented custom properties and ::part()s). Default none.",
  },
  {
    env: 'ESIGN_SHUTDOWN_MS',
    flag: '--shutdown-ms',
    what: "how long SIGTERM waits for requests in flight, ms. Default 35000 (a result hook's 30 s and a margin).",
  },
];

export class SettingError extends Error {}

/** The shortest client secret taken: 32 characters, as long as a random 24 bytes in base64. */
export const MIN_CLIENT_SECRET = 32;

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Whether a URL's host is this machine: a loopback address or localhost. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The value of a setting: its flag (`--port 8080` or `--port=8080`), else its variable. */
function valueOf(setting: Setting, args: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  for (const [i, arg] of args.entries()) {
    if (arg === setting.flag) return args[i + 1] ?? '';
    if (arg.startsWith(`${setting.flag}=`)) return arg.slice(setting.flag.length + 1);
  }
  return env[setting.env];
}

function byEnv(name: string): Setting {
  const setting = SETTINGS.find((s) => s.env === name);
  if (!setting) throw new TypeError(`no setting ${name}`);
  return setting;
}
const named = (setting: Setting) => `${setting.env} (${setting.flag})`;

function flagOf(value: string | undefined, setting: Setting, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new SettingError(`${named(setting)} must be 1 or 0, not ${JSON.stringify(value)}`);
}

/** Reads and checks the settings; throws SettingError naming the one that is wrong. */
export function readSettings(args: readonly string[], env: NodeJS.ProcessEnv): ServerSettings {
  const unknown = args.find((arg) => arg.startsWith('--') && !SETTINGS.some((s) => arg === s.flag || arg.startsWith(`${s.flag}=`)) && arg !== '--help');
  if (unknown) throw new SettingError(`${unknown.split('=')[0]} is no setting of esign-proxy (see --help)`);
  const get = (name: string) => valueOf(byEnv(name), args, env)?.trim();
  const baseUrl = get('ESIGN_BASE_URL');
  if (!baseUrl) throw new SettingError(`${named(byEnv('ESIGN_BASE_URL'))} is required: the service's address, e.g. https://service.example`);
  if (!/^https?:\/\/[^/]/.test(baseUrl) || !URL.canParse(baseUrl))
    throw new SettingError(`${named(byEnv('ESIGN_BASE_URL'))} must be an http(s) address, not ${JSON.stringify(baseUrl.slice(0, 80))}`);
  const accessToken = get('ESIGN_ACCESS_TOKEN');
  if (!accessToken || accessToken.length < 8)
    throw new SettingError(`${named(byEnv('ESIGN_ACCESS_TOKEN'))} is required, 8 characters or more: the service's secret access token`);
  const prefix = (get('ESIGN_PREFIX') || '/esign').replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(prefix) || prefix.includes('//') || prefix === '')
    throw new SettingError(`${named(byEnv('ESIGN_PREFIX'))} must be a path such as /esign, not ${JSON.stringify(prefix)}`);
  const portText = get('PORT') || '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new SettingError(`${named(byEnv('PORT'))} must be a port number, not ${JSON.stringify(portText)}`);
  const scheme = get('ESIGN_PUBLIC_SCHEME') || undefined;
  if (scheme !== undefined && scheme !== 'https' && scheme !== 'http')
    throw new SettingError(`${named(byEnv('ESIGN_PUBLIC_SCHEME'))} must be https or http, not ${JSON.stringify(scheme)}`);
  const origins = (get('ESIGN_ALLOWED_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin)
      throw new SettingError(`${named(byEnv('ESIGN_ALLOWED_ORIGINS'))} lists origins such as https://app.example; ${JSON.stringify(origin)} is none`);
  }
  const redisUrl = get('ESIGN_REDIS_URL') || undefined;
  const cluster = (get('ESIGN_REDIS_CLUSTER') ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  for (const url of [...(redisUrl ? [redisUrl] : []), ...cluster]) {
    if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol))
      throw new SettingError(`${named(byEnv(redisUrl === url ? 'ESIGN_REDIS_URL' : 'ESIGN_REDIS_CLUSTER'))} takes redis:// or rediss:// addresses`);
  }
  if (redisUrl && cluster.length) throw new SettingError(`${named(byEnv('ESIGN_REDIS_URL'))} and ${named(byEnv('ESIGN_REDIS_CLUSTER'))}: set one of them`);
  const shutdownText = get('ESIGN_SHUTDOWN_MS') || '35000';
  const shutdownMs = Number(shutdownText);
  if (!Number.isFinite(shutdownMs) || shutdownMs < 0)
    throw new SettingError(`${named(byEnv('ESIGN_SHUTDOWN_MS'))} must be a number of milliseconds, not ${JSON.stringify(shutdownText)}`);
  const webhookUrl = get('ESIGN_WEBHOOK_URL') || undefined;
  const signerUrl = get('ESIGN_SIGNER_URL') || undefined;
  for (const [name, url] of [
    ['ESIGN_WEBHOOK_URL', webhookUrl],
    ['ESIGN_SIGNER_URL', signerUrl],
  ] as const) {
    if (url && URL.canParse(url) && (new URL(url).username || new URL(url).password)) {
      // said without the URL: its password would be in the log
      throw new SettingError(
        `${named(byEnv(name))} carries a user or password: the deliveries are signed, so the URL needs none (and a password in a URL ends up in logs). Take it out`,
      );
    }
    if (url && (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)))
      throw new SettingError(`${named(byEnv(name))} must be an http(s) address, not ${JSON.stringify(url.slice(0, 80))}`);
  }
  const secrets = get('ESIGN_WEBHOOK_SECRET') ?? '';
  const keys = secrets ? webhookKeys(secrets) : [];
  if (keys === null)
    throw new SettingError(`${named(byEnv('ESIGN_WEBHOOK_SECRET'))} takes whsec_ secrets (whsec_ and the base64 of 24 bytes or more), comma-separated`);
  if ((webhookUrl || signerUrl) && !keys.length)
    throw new SettingError(
      `${named(byEnv('ESIGN_WEBHOOK_SECRET'))} is required with ${webhookUrl ? 'ESIGN_WEBHOOK_URL' : 'ESIGN_SIGNER_URL'}: the deliveries are signed`,
    );
  const visitorCookie = get('ESIGN_VISITOR_COOKIE') || undefined;
  if (visitorCookie && !COOKIE_NAME.test(visitorCookie))
    throw new SettingError(`${named(byEnv('ESIGN_VISITOR_COOKIE'))} must be a cookie's name, not ${JSON.stringify(visitorCookie)}`);
  const resultText = get('ESIGN_RESULT_TIMEOUT_MS') || '30000';
  const resultTimeoutMs = Number(resultText);
  if (!Number.isFinite(resultTimeoutMs) || resultTimeoutMs <= 0)
    throw new SettingError(`${named(byEnv('ESIGN_RESULT_TIMEOUT_MS'))} must be a number of milliseconds, not ${JSON.stringify(resultText)}`);
  const storeText = get('ESIGN_STORE_TIMEOUT_MS') || String(DEFAULT_STORE_TIMEOUT);
  const storeTimeoutMs = Number(storeText);
  if (!Number.isInteger(storeTimeoutMs) || storeTimeoutMs < 50 || storeTimeoutMs > 30_000)
    throw new SettingError(`${named(byEnv('ESIGN_STORE_TIMEOUT_MS'))} is a whole number of milliseconds from 50 to 30000, not ${JSON.stringify(storeText)}`);
  const allowPlainHttp = flagOf(get('ESIGN_ALLOW_PLAIN_HTTP'), byEnv('ESIGN_ALLOW_PLAIN_HTTP'), false);
  for (const [name, url] of [
    ['ESIGN_WEBHOOK_URL', webhookUrl],
    ['ESIGN_SIGNER_URL', signerUrl],
  ] as const) {
    if (url && !allowPlainHttp && new URL(url).protocol === 'http:' && !isLoopback(new URL(url).hostname)) {
      throw new SettingError(
        `${named(byEnv(name))} is plain http:// to another machine: a delivery and the signer question (the browser's cookies) would cross the network readable. Use https://, an address on this machine, or set ESIGN_ALLOW_PLAIN_HTTP=1 on a network you trust`,
      );
    }
  }
  const forwardText = get('ESIGN_FORWARD_COOKIES') ?? '';
  const forwardCookies = forwardText
    ? forwardText
        .split(',')
        .map((n) => n.trim())
        .filter(Boolean)
    : visitorCookie
      ? [visitorCookie]
      : [];
  for (const name of forwardCookies) {
    if (!COOKIE_NAME.test(name))
      throw new SettingError(`${named(byEnv('ESIGN_FORWARD_COOKIES'))} lists cookie names, comma-separated; ${JSON.stringify(name)} is none`);
  }
  const rateText = get('ESIGN_RATE_LIMIT') || undefined;
  let rateLimit: ServerSettings['rateLimit'];
  if (rateText) {
    const numbers = rateText.split(',').map((n) => Number(n.trim()));
    if (numbers.length < 3 || numbers.length > 4 || numbers.some((n) => !Number.isInteger(n) || n < 1)) {
      throw new SettingError(
        `${named(byEnv('ESIGN_RATE_LIMIT'))} takes "visitor,person,window[,address]" (whole numbers, the window in seconds), e.g. ${DEFAULT_LIMITS_TEXT}; not ${JSON.stringify(rateText)}`,
      );
    }
    const [visitor = 0, person = 0, window = 0, address] = numbers;
    rateLimit = { visitor, person, windowMs: window * 1000, address };
  }
  const redisPrefix = get('ESIGN_REDIS_PREFIX') || `esign-proxy:${createHash('sha256').update(accessToken).digest('hex').slice(0, 12)}:`;
  if (!/^[\x21-\x7e]{1,64}$/.test(redisPrefix)) throw new SettingError(`${named(byEnv('ESIGN_REDIS_PREFIX'))} must be up to 64 visible characters, no spaces`);
  const oidc = readOidc(get, prefix, get('ESIGN_VISITOR_SECRET') || undefined, accessToken);
  if (oidc) checkIssuerScheme(oidc.issuer, scheme);
  return {
    oidc,
    forwardCookies,
    allowPlainHttp,
    rateLimit,
    redisPrefix,
    webhookUrl,
    webhookKeys: keys,
    signerUrl,
    visitorCookie,
    resultTimeoutMs,
    storeTimeoutMs,
    baseUrl,
    accessToken,
    prefix,
    port,
    host: get('ESIGN_HOST') || '127.0.0.1',
    allowedOrigins: origins,
    publicScheme: scheme,
    redisUrl,
    redisClusterUrls: cluster,
    eventSecret: get('ESIGN_EVENT_SECRET') || undefined,
    trustRequestIdHeader: get('ESIGN_TRUST_REQUEST_ID_HEADER') || undefined,
    visitorSecret: get('ESIGN_VISITOR_SECRET') || undefined,
    exposeScreening: flagOf(get('ESIGN_EXPOSE_SCREENING'), byEnv('ESIGN_EXPOSE_SCREENING'), false),
    trustProxy: flagOf(get('ESIGN_TRUST_PROXY'), byEnv('ESIGN_TRUST_PROXY'), false),
    serveWidget: flagOf(get('ESIGN_SERVE_WIDGET'), byEnv('ESIGN_SERVE_WIDGET'), true),
    shutdownMs,
  };
}

/**
 * esign-proxy speaks plain http: an https:// issuer means TLS ends in front, and the provider must
 * know it (the login's last step, the cookies' Secure flag). No header is taken for it.
 */
function checkIssuerScheme(issuer: string, scheme: 'https' | 'http' | undefined): void {
  const issuerScheme = new URL(issuer).protocol === 'https:' ? 'https' : 'http';
  if (issuerScheme === 'https' && scheme !== 'https')
    throw new SettingError(
      `${named(byEnv('ESIGN_OIDC_ISSUER'))} is https://, and esign-proxy itself serves plain http behind your TLS front: set ${named(byEnv('ESIGN_PUBLIC_SCHEME'))} to https, so that the login's last step goes to https:// and every cookie is Secure`,
    );
  if (issuerScheme === 'http' && scheme === 'https')
    throw new SettingError(
      `${named(byEnv('ESIGN_OIDC_ISSUER'))} is http:// and ${named(byEnv('ESIGN_PUBLIC_SCHEME'))} is https: the issuer is the address browsers and clients reach, so give it as https://`,
    );
}

/** The client registrations: each with a client_id, and a secret long enough not to be guessed (the token endpoint's failures are limited too). */
function checkClients(clients: Record<string, unknown>[]): void {
  const setting = named(byEnv('ESIGN_OIDC_CLIENTS'));
  for (const [i, client] of clients.entries()) {
    const id = client['client_id'];
    if (typeof id !== 'string' || !id) throw new SettingError(`${setting}: registration ${i + 1} has no client_id`);
    const uris = client['redirect_uris'];
    if (!Array.isArray(uris) || !uris.length || !uris.every((uri) => typeof uri === 'string'))
      throw new SettingError(`${setting}: client ${JSON.stringify(id)} needs redirect_uris, a list of the exact URLs the browser may be sent back to`);
    const logo = client['logo_uri'];
    if (logo !== undefined && (typeof logo !== 'string' || !URL.canParse(logo) || !/^https?:$/.test(new URL(logo).protocol)))
      throw new SettingError(`${setting}: client ${JSON.stringify(id)} has a logo_uri that is not an https:// URL`);
    if (typeof logo === 'string' && new URL(logo).protocol === 'http:' && !isLoopback(new URL(logo).hostname))
      throw new SettingError(
        `${setting}: client ${JSON.stringify(id)} has a logo_uri of plain http://: the login page is https and would not show it; serve the logo over https`,
      );
    const locales = client['default_ui_locales'];
    if (locales !== undefined && (typeof locales !== 'string' || !/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*( [A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*)*$/.test(locales)))
      throw new SettingError(`${setting}: client ${JSON.stringify(id)} has a default_ui_locales that is not language tags separated by spaces, e.g. "lv en"`);
    const secret = client['client_secret'];
    const method = client['token_endpoint_auth_method'];
    if (method === 'none') {
      if (secret !== undefined)
        throw new SettingError(`${setting}: client ${JSON.stringify(id)} is public (token_endpoint_auth_method none) and has a client_secret: take one out`);
      continue;
    }
    if (typeof secret !== 'string' || secret.length < MIN_CLIENT_SECRET)
      throw new SettingError(
        `${setting}: client ${JSON.stringify(id)} needs a client_secret of ${MIN_CLIENT_SECRET} characters or more (make one: openssl rand -base64 32), or token_endpoint_auth_method none with PKCE`,
      );
  }
}

/** A JSON file a setting names: its value, or a sentence naming the setting. */
function jsonFile(name: string, path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SettingError(
      `${named(byEnv(name))}: cannot read ${JSON.stringify(path)} (${error instanceof Error && 'code' in error ? String(error.code) : 'unreadable'})`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SettingError(`${named(byEnv(name))}: ${JSON.stringify(path)} is not JSON`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function readOidc(get: (name: string) => string | undefined, prefix: string, visitorSecret: string | undefined, accessToken: string): OidcSettings | undefined {
  const issuer = get('ESIGN_OIDC_ISSUER')?.replace(/\/+$/, '');
  if (!issuer) return undefined;
  const issuerSetting = named(byEnv('ESIGN_OIDC_ISSUER'));
  if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol))
    throw new SettingError(`${issuerSetting} must be an https:// URL, not ${JSON.stringify(issuer.slice(0, 80))}`);
  const url = new URL(issuer);
  if (url.username || url.password || url.search || url.hash) throw new SettingError(`${issuerSetting} is a URL with no user, password, query or fragment`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname))
    throw new SettingError(`${issuerSetting} must be https:// (plain http:// only on this machine, for development)`);
  if (!url.pathname.startsWith(`${prefix}/`))
    throw new SettingError(
      `${issuerSetting} must be under the prefix, e.g. https://site.example${prefix}/oidc (nginx sends ${prefix}/ here), not ${JSON.stringify(issuer)}`,
    );
  const clientsPath = get('ESIGN_OIDC_CLIENTS');
  if (!clientsPath) throw new SettingError(`${named(byEnv('ESIGN_OIDC_CLIENTS'))} is required with ${issuerSetting}: a JSON file of the clients`);
  const clients = jsonFile('ESIGN_OIDC_CLIENTS', clientsPath);
  if (!Array.isArray(clients) || !clients.length || !clients.every(isObject))
    throw new SettingError(`${named(byEnv('ESIGN_OIDC_CLIENTS'))}: the file holds an array of client registrations (objects with client_id and redirect_uris)`);
  checkClients(clients.filter(isObject));
  const keysPath = get('ESIGN_OIDC_KEYS');
  let keys: OidcSettings['keys'] = null;
  if (keysPath) {
    const jwks = jsonFile('ESIGN_OIDC_KEYS', keysPath);
    const list = isObject(jwks) ? jwks['keys'] : undefined;
    if (!Array.isArray(list) || !list.length || !list.every((key) => isObject(key) && typeof key['d'] === 'string')) {
      throw new SettingError(`${named(byEnv('ESIGN_OIDC_KEYS'))}: the file holds a private JWKS, {"keys": [...]} with each key's private part`);
    }
    keys = { keys: list.filter(isObject) };
  }
  const stylesheetPath = get('ESIGN_OIDC_STYLESHEET');
  let stylesheet: string | null = null;
  if (stylesheetPath) {
    try {
      stylesheet = readFileSync(stylesheetPath, 'utf8');
    } catch {
      throw new SettingError(`${named(byEnv('ESIGN_OIDC_STYLESHEET'))}: cannot read ${JSON.stringify(stylesheetPath)}`);
    }
  }
  const lifetimeText = get('ESIGN_OIDC_CODE_LIFETIME');
  const codeLifetimeS = lifetimeText ? Number(lifetimeText) : 60;
  if (!Number.isInteger(codeLifetimeS) || codeLifetimeS < 1 || codeLifetimeS > 600)
    throw new SettingError(`${named(byEnv('ESIGN_OIDC_CODE_LIFETIME'))} is a whole number of seconds from 1 to 600, not ${JSON.stringify(lifetimeText)}`);
  const own = get('ESIGN_OIDC_SUBJECT_SECRET');
  if (own !== undefined && own !== '' && own.length < 16) throw new SettingError(`${named(byEnv('ESIGN_OIDC_SUBJECT_SECRET'))} must be 16 characters or more`);
  const subjectSecretFrom = own ? 'setting' : visitorSecret ? 'visitor secret' : 'access token';
  return { issuer, clients, keys, subjectSecret: own || visitorSecret || accessToken, subjectSecretFrom, stylesheet, codeLifetimeS };
}

export function helpText(): string {
  const lines = SETTINGS.map((s) => `  ${s.env.padEnd(24)}${s.flag}\n      ${s.what}`);
  return `esign-proxy: the esign-elements proxy as a server of its own, for a site on any stack.

It serves the service's operations under the prefix with every rule of the proxy (the token kept
here, the allow-list, the visitor binding, the limits, the result checked), writes one JSON line per
event on stdout, answers GET /healthz (alive) and GET /readyz (its state reachable), and on SIGTERM
finishes the requests in flight and stops. Settings, by environment variable or flag:

${lines.join('\n')}
`;
}
