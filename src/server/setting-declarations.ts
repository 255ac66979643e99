import { readFileSync } from 'node:fs';
import { webhookKeys } from './webhook.js';
import { DEFAULT_RATE_LIMITS } from '../protocol/proxy-rules.js';
import { DEFAULT_STORE_TIMEOUT } from '../proxy/options.js';
import { BUSY_RETRY_AFTER, DEFAULT_PRESSURE } from '../proxy/pressure.js';
import { keysOf } from '../protocol/checks.js';

/*
 * Every setting of `esign-proxy`, declared once: its variable (named as the PHP proxy names its
 * own) and flag, what it takes, its words for --help and the docs, and its parser. The parsed
 * type of each is its parser's; settings.ts reads them all and checks the ones that go together.
 */

/** What is wrong with a value, in words that follow the setting's name (`PORT (--port) …`). */
export class Problem extends Error {}

export interface Setting<T> {
  readonly env: string;
  readonly flag: `--${string}`;
  /** What it takes, in a few words: the docs table's column and --help's `<...>`. */
  readonly takes: string;
  /** What it does and its default, for --help and the docs table. */
  readonly what: string;
  /** The value from its text (undefined or '' when not set); throws Problem. */
  readonly parse: (text: string | undefined) => T;
}

const declare = <T>(setting: Setting<T>): Setting<T> => setting;

const given = (text: string | undefined): string | undefined => (text === undefined || text.trim() === '' ? undefined : text.trim());
const quoted = (text: string) => JSON.stringify(text.slice(0, 80));

const list = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

function switchOf(fallback: boolean) {
  return (text: string | undefined): boolean => {
    const value = given(text);
    if (value === undefined) return fallback;
    if (value === '1' || value === 'true') return true;
    if (value === '0' || value === 'false') return false;
    throw new Problem(`must be 1 or 0, not ${quoted(value)}`);
  };
}

/** A whole number from `min` to `max` in `unit`, `fallback` when not set: the parser and the words saying so. */
function wholeNumber(min: number, max: number, unit: string, fallback: number) {
  return {
    range: `${min} to ${max}`,
    parse: (text: string | undefined): number => {
      const value = given(text);
      if (value === undefined) return fallback;
      const number = Number(value);
      if (!Number.isInteger(number) || number < min || number > max)
        throw new Problem(`is a whole number of ${unit} from ${min} to ${max}, not ${quoted(value)}`);
      return number;
    },
  };
}

function httpUrl(text: string | undefined): string | undefined {
  const url = given(text);
  if (url === undefined) return undefined;
  // said without the URL: its password would be in the log
  if (URL.canParse(url) && (new URL(url).username || new URL(url).password))
    throw new Problem('carries a user or password: the deliveries are signed, so the URL needs none (and a password in a URL ends up in logs). Take it out');
  if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) throw new Problem(`must be an http(s) address, not ${quoted(url)}`);
  return url;
}

function redisUrls(text: string | undefined): string[] {
  const urls = list(text);
  for (const url of urls) if (!URL.canParse(url) || !/^rediss?:$/.test(new URL(url).protocol)) throw new Problem('takes redis:// or rediss:// addresses');
  return urls;
}

const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** A JSON file a setting names, parsed. */
function jsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Problem(`: cannot read ${JSON.stringify(path)} (${error instanceof Error && 'code' in error ? String(error.code) : 'unreadable'})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Problem(`: ${JSON.stringify(path)} is not JSON`);
  }
}

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a URL's host is this machine: a loopback address or localhost. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The shortest client secret taken: 32 characters, as long as a random 24 bytes in base64. */
export const MIN_CLIENT_SECRET = 32;

const LANGUAGE_TAGS = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*( [A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*)*$/;

/** One client registration's problem, or null: a client_id, redirect URIs, a safe logo, and a secret long enough not to be guessed. */
function clientProblem(client: Record<string, unknown>, index: number): string | null {
  const id = client['client_id'];
  if (typeof id !== 'string' || !id) return `registration ${index + 1} has no client_id`;
  const named = `client ${JSON.stringify(id)}`;
  const uris = client['redirect_uris'];
  if (!Array.isArray(uris) || !uris.length || !uris.every((uri) => typeof uri === 'string'))
    return `${named} needs redirect_uris, a list of the exact URLs the browser may be sent back to`;
  const logo = client['logo_uri'];
  if (logo !== undefined && (typeof logo !== 'string' || !URL.canParse(logo) || !/^https?:$/.test(new URL(logo).protocol)))
    return `${named} has a logo_uri that is not an https:// URL`;
  if (typeof logo === 'string' && new URL(logo).protocol === 'http:' && !isLoopback(new URL(logo).hostname))
    return `${named} has a logo_uri of plain http://: the login page is https and would not show it; serve the logo over https`;
  const locales = client['default_ui_locales'];
  if (locales !== undefined && (typeof locales !== 'string' || !LANGUAGE_TAGS.test(locales)))
    return `${named} has a default_ui_locales that is not language tags separated by spaces, e.g. "lv en"`;
  const secret = client['client_secret'];
  if (client['token_endpoint_auth_method'] === 'none')
    return secret === undefined ? null : `${named} is public (token_endpoint_auth_method none) and has a client_secret: take one out`;
  if (typeof secret !== 'string' || secret.length < MIN_CLIENT_SECRET)
    return `${named} needs a client_secret of ${MIN_CLIENT_SECRET} characters or more (make one: openssl rand -base64 32), or token_endpoint_auth_method none with PKCE`;
  return null;
}

const { perVisitor, perPerson, perAddress } = DEFAULT_RATE_LIMITS;
/** The default start limits as ESIGN_RATE_LIMIT writes them (the rules' numbers, said once). */
export const DEFAULT_LIMITS_TEXT = [perVisitor.limit, perPerson.limit, perPerson.windowMs / 1000].join(',');

const storeTimeout = wholeNumber(50, 30_000, 'milliseconds', DEFAULT_STORE_TIMEOUT);
const startsInFlight = wholeNumber(1, 100_000, 'starts', DEFAULT_PRESSURE.maxStartsInFlight);
const loopDelay = wholeNumber(10, 60_000, 'milliseconds', DEFAULT_PRESSURE.maxEventLoopDelayMs);
const codeLifetime = wholeNumber(1, 600, 'seconds', 60);
const SHUTDOWN_MS = 35_000;
const RESULT_TIMEOUT_MS = 30_000;

function milliseconds(fallback: number, zeroAllowed: boolean) {
  return (text: string | undefined): number => {
    const value = given(text);
    if (value === undefined) return fallback;
    const number = Number(value);
    if (!Number.isFinite(number) || number < 0 || (!zeroAllowed && number === 0)) throw new Problem(`must be a number of milliseconds, not ${quoted(value)}`);
    return number;
  };
}

export const SETTINGS = {
  baseUrl: declare({
    env: 'ESIGN_BASE_URL',
    flag: '--base-url',
    takes: 'URL',
    what: "the service's address, e.g. https://service.example (the sandbox's: npx esign-sandbox). Required.",
    parse: (text) => {
      const url = given(text);
      if (url === undefined) throw new Problem("is required: the service's address, e.g. https://service.example");
      if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) throw new Problem(`must be an http(s) address, not ${quoted(url)}`);
      return url;
    },
  }),
  accessToken: declare({
    env: 'ESIGN_ACCESS_TOKEN',
    flag: '--access-token',
    takes: 'secret',
    what: "the service's secret access token, 8 characters or more. Required; never logged. Prefer the environment to the flag.",
    parse: (text) => {
      const token = given(text);
      if (token === undefined || token.length < 8) throw new Problem("is required, 8 characters or more: the service's secret access token");
      return token;
    },
  }),
  prefix: declare({
    env: 'ESIGN_PREFIX',
    flag: '--prefix',
    takes: 'path',
    what: "the path the widget's endpoint points at. Default /esign.",
    parse: (text) => {
      const prefix = (given(text) ?? '/esign').replace(/\/+$/, '');
      if (!/^\/[A-Za-z0-9._~\-/]*$/.test(prefix) || prefix.includes('//') || prefix === '')
        throw new Problem(`must be a path such as /esign, not ${quoted(prefix)}`);
      return prefix;
    },
  }),
  port: declare({
    env: 'PORT',
    flag: '--port',
    takes: 'port',
    what: 'the port to listen on. Default 8787.',
    parse: (text) => {
      const value = given(text) ?? '8787';
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Problem(`must be a port number, not ${quoted(value)}`);
      return port;
    },
  }),
  host: declare({
    env: 'ESIGN_HOST',
    flag: '--host',
    takes: 'address',
    what: 'the address to listen on. Default 127.0.0.1 (behind nginx on the same machine); 0.0.0.0 for every address.',
    parse: (text) => given(text) ?? '127.0.0.1',
  }),
  allowedOrigins: declare({
    env: 'ESIGN_ALLOWED_ORIGINS',
    flag: '--allowed-origins',
    takes: 'origins, comma-separated',
    what: "other sites' origins allowed to call (a host that answers CORS itself in front). Default none.",
    parse: (text) => {
      const origins = list(text);
      for (const origin of origins)
        if (!URL.canParse(origin) || new URL(origin).origin !== origin)
          throw new Problem(`lists origins such as https://app.example; ${quoted(origin)} is none`);
      return origins;
    },
  }),
  publicScheme: declare({
    env: 'ESIGN_PUBLIC_SCHEME',
    flag: '--public-scheme',
    takes: 'https or http',
    what: "the scheme the browser reaches the site by, where TLS ends in front (nginx, a balancer). The one setting for the proxy and the OpenID Provider alike: https marks every cookie Secure, names the visitor cookie __Host-esign-visitor and sends the login's last step to https://. Required as https with an https:// ESIGN_OIDC_ISSUER. Default: pages taken as https (http too on a loopback address), cookies not Secure.",
    parse: (text): 'https' | 'http' | undefined => {
      const scheme = given(text);
      if (scheme === undefined || scheme === 'https' || scheme === 'http') return scheme;
      throw new Problem(`must be https or http, not ${quoted(scheme)}`);
    },
  }),
  redisUrl: declare({
    env: 'ESIGN_REDIS_URL',
    flag: '--redis-url',
    takes: 'redis:// URL',
    what: "a Redis server for the state of several instances, e.g. redis://127.0.0.1:6379. Default: this process's memory.",
    parse: (text) => {
      const urls = redisUrls(text);
      if (urls.length > 1) throw new Problem('is one address: several Redis Cluster nodes go in ESIGN_REDIS_CLUSTER');
      return urls[0];
    },
  }),
  redisClusterUrls: declare({
    env: 'ESIGN_REDIS_CLUSTER',
    flag: '--redis-cluster',
    takes: 'redis:// URLs, comma-separated',
    what: 'Redis Cluster nodes instead of one server.',
    parse: redisUrls,
  }),
  redisPrefix: declare({
    env: 'ESIGN_REDIS_PREFIX',
    flag: '--redis-prefix',
    takes: 'text',
    what: 'what every Redis key of this site begins with, so that sites sharing a Redis share nothing. Default: esign-proxy: and a digest of the access token.',
    parse: (text) => {
      const prefix = given(text);
      if (prefix !== undefined && !/^[\x21-\x7e]{1,64}$/.test(prefix)) throw new Problem('must be up to 64 visible characters, no spaces');
      return prefix;
    },
  }),
  storeTimeoutMs: declare({
    env: 'ESIGN_STORE_TIMEOUT_MS',
    flag: '--store-timeout-ms',
    takes: `ms, ${storeTimeout.range}`,
    what: `how long one call of the store (Redis) may take before its request is refused 503 store-unavailable. Default ${DEFAULT_STORE_TIMEOUT} (time the node itself was too busy to read the answer does not count).`,
    parse: storeTimeout.parse,
  }),
  maxStartsInFlight: declare({
    env: 'ESIGN_MAX_STARTS_IN_FLIGHT',
    flag: '--max-starts-in-flight',
    takes: `starts, ${startsInFlight.range}`,
    what: `how many session starts this node works on at once; under a burst one more is refused at once, 429 busy with Retry-After ${BUSY_RETRY_AFTER} (the event's limit: node), before the node falls behind the sessions it has. Default ${DEFAULT_PRESSURE.maxStartsInFlight}.`,
    parse: startsInFlight.parse,
  }),
  maxEventLoopDelayMs: declare({
    env: 'ESIGN_MAX_EVENT_LOOP_DELAY_MS',
    flag: '--max-event-loop-delay-ms',
    takes: `ms, ${loopDelay.range}`,
    what: `how late this node's event loop may have been in the last second or so before a new session start is refused the same way (polls and hand-overs never are). Default ${DEFAULT_PRESSURE.maxEventLoopDelayMs}.`,
    parse: loopDelay.parse,
  }),
  eventSecret: declare({
    env: 'ESIGN_EVENT_SECRET',
    flag: '--event-secret',
    takes: 'secret',
    what: 'the key of the digests events show a person and a visitor by. Default: the access token (the person then masked).',
    parse: given,
  }),
  trustRequestIdHeader: declare({
    env: 'ESIGN_TRUST_REQUEST_ID_HEADER',
    flag: '--trust-request-id-header',
    takes: 'header name',
    what: "a header your edge sets and overwrites (x-request-id, nginx's $request_id) whose id each request keeps. Default: none, the proxy mints one.",
    parse: given,
  }),
  visitorSecret: declare({
    env: 'ESIGN_VISITOR_SECRET',
    flag: '--visitor-secret',
    takes: 'secret',
    what: 'the key the visitor cookie is signed with; the same for every instance. Default: the access token.',
    parse: given,
  }),
  visitorCookie: declare({
    env: 'ESIGN_VISITOR_COOKIE',
    flag: '--visitor-cookie',
    takes: 'cookie name',
    what: "the name of the site's own session cookie, to be the visitor (kept only as a keyed digest). Default: a cookie of the proxy's own.",
    parse: (text) => {
      const name = given(text);
      if (name !== undefined && !COOKIE_NAME.test(name)) throw new Problem(`must be a cookie's name, not ${quoted(name)}`);
      return name;
    },
  }),
  exposeScreening: declare({
    env: 'ESIGN_EXPOSE_SCREENING',
    flag: '--expose-screening',
    takes: '1 or 0',
    what: '1 passes PEP and sanctions data to the browser. Default 0.',
    parse: switchOf(false),
  }),
  trustProxy: declare({
    env: 'ESIGN_TRUST_PROXY',
    flag: '--trust-proxy',
    takes: '1 or 0',
    what: "1 when nginx or a balancer in front adds X-Forwarded-For: its last hop is the browser's address, for the per-address limits (session starts, and the OpenID Provider's failed client logins), and the OpenID Provider takes X-Forwarded-Host for the site's host. The scheme is never taken from a header: ESIGN_PUBLIC_SCHEME says it. Default 0 (no per-address limit).",
    parse: switchOf(false),
  }),
  serveWidget: declare({
    env: 'ESIGN_SERVE_WIDGET',
    flag: '--serve-widget',
    takes: '1 or 0',
    what: "1 serves the widget's script-tag files under <prefix>/cdn/ (a static site needs nothing else). Default 1.",
    parse: switchOf(true),
  }),
  rateLimit: declare({
    env: 'ESIGN_RATE_LIMIT',
    flag: '--rate-limit',
    takes: 'visitor,person,window[,address]',
    what: `session starts allowed per visitor, per person, in the window (seconds), and per address, e.g. ${DEFAULT_LIMITS_TEXT}. Default: ${perVisitor.limit} and ${perPerson.limit} in ${perPerson.windowMs / 60_000} minutes, ${perAddress.limit} per address.`,
    parse: (text) => {
      const value = given(text);
      if (value === undefined) return undefined;
      const numbers = value.split(',').map((n) => Number(n.trim()));
      if (numbers.length < 3 || numbers.length > 4 || numbers.some((n) => !Number.isInteger(n) || n < 1))
        throw new Problem(`takes "visitor,person,window[,address]" (whole numbers, the window in seconds), e.g. ${DEFAULT_LIMITS_TEXT}; not ${quoted(value)}`);
      const [visitor = 0, person = 0, window = 0, address] = numbers;
      return { visitor, person, windowMs: window * 1000, address };
    },
  }),
  webhookUrl: declare({
    env: 'ESIGN_WEBHOOK_URL',
    flag: '--webhook-url',
    takes: 'URL',
    what: 'where each verified result is POSTed, signed as a Standard Webhooks delivery, before the browser sees it: a fact (a signed file, a document), with no cookie of the browser and nothing of the answer passed on (no delivery logs anyone in). Default none.',
    parse: httpUrl,
  }),
  webhookKeys: declare({
    env: 'ESIGN_WEBHOOK_SECRET',
    flag: '--webhook-secret',
    takes: 'whsec_ secrets, comma-separated',
    what: 'the secret the deliveries are signed with (make one: echo whsec_$(openssl rand -base64 32)); several, the new one first, while one is rotated (each signs). Required with a webhook or signer URL.',
    parse: (text) => {
      const secrets = given(text);
      if (secrets === undefined) return [];
      const keys = webhookKeys(secrets);
      if (keys === null) throw new Problem('takes whsec_ secrets (whsec_ and the base64 of 24 bytes or more), comma-separated');
      return keys;
    },
  }),
  signerUrl: declare({
    env: 'ESIGN_SIGNER_URL',
    flag: '--signer-url',
    takes: 'URL',
    what: 'signing only as the person signed in: the server asks this URL (a signed POST with the browser\'s cookies), which answers {"country","code"} or null. Default none: no gate.',
    parse: httpUrl,
  }),
  forwardCookies: declare({
    env: 'ESIGN_FORWARD_COOKIES',
    flag: '--forward-cookies',
    takes: 'cookie names, comma-separated',
    what: "the browser's cookies the signer question carries (your session cookie). Default: the ESIGN_VISITOR_COOKIE name when set, else every cookie but the proxy's own.",
    parse: (text) => {
      const names = list(text);
      for (const name of names) if (!COOKIE_NAME.test(name)) throw new Problem(`lists cookie names, comma-separated; ${quoted(name)} is none`);
      return names.length ? names : undefined;
    },
  }),
  resultTimeoutMs: declare({
    env: 'ESIGN_RESULT_TIMEOUT_MS',
    flag: '--result-timeout-ms',
    takes: 'ms',
    what: `how long the webhook may take to take a result; after it the browser is told to try again. Default ${RESULT_TIMEOUT_MS}.`,
    parse: milliseconds(RESULT_TIMEOUT_MS, false),
  }),
  allowPlainHttp: declare({
    env: 'ESIGN_ALLOW_PLAIN_HTTP',
    flag: '--allow-plain-http',
    takes: '1 or 0',
    what: '1 allows http:// webhook and signer URLs on another machine (a private network you trust). Default 0: https://, or http:// on a loopback address only.',
    parse: switchOf(false),
  }),
  oidcIssuer: declare({
    env: 'ESIGN_OIDC_ISSUER',
    flag: '--oidc-issuer',
    takes: 'URL',
    what: "makes esign-proxy an OpenID Provider with this issuer URL, under the prefix (https://site.example/esign/oidc): a site logs a person in with its stack's OpenID Connect client. Default none.",
    parse: (text) => {
      const issuer = given(text)?.replace(/\/+$/, '');
      if (issuer === undefined || issuer === '') return undefined;
      if (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol)) throw new Problem(`must be an https:// URL, not ${quoted(issuer)}`);
      const url = new URL(issuer);
      if (url.username || url.password || url.search || url.hash) throw new Problem('is a URL with no user, password, query or fragment');
      if (url.protocol === 'http:' && !isLoopback(url.hostname)) throw new Problem('must be https:// (plain http:// only on this machine, for development)');
      return issuer;
    },
  }),
  oidcClients: declare({
    env: 'ESIGN_OIDC_CLIENTS',
    flag: '--oidc-clients',
    takes: 'JSON file',
    what: 'an array of client registrations (client_id, client_secret of 32 characters or more, redirect_uris, token_endpoint_auth_method, client_name). Required with ESIGN_OIDC_ISSUER.',
    parse: (text): Record<string, unknown>[] | undefined => {
      const path = given(text);
      if (path === undefined) return undefined;
      const clients = jsonFile(path);
      if (!Array.isArray(clients) || !clients.length || !clients.every(isObject))
        throw new Problem(': the file holds an array of client registrations (objects with client_id and redirect_uris)');
      for (const [i, client] of clients.entries()) {
        const problem = clientProblem(client, i);
        if (problem) throw new Problem(`: ${problem}`);
      }
      return clients;
    },
  }),
  oidcKeys: declare({
    env: 'ESIGN_OIDC_KEYS',
    flag: '--oidc-keys',
    takes: 'JSON file',
    what: 'the private JWKS the ID tokens are signed with, the same on every node. Default: a key made at start, for development only (a restart or a second node makes ID tokens no client can check).',
    parse: (text): { keys: Record<string, unknown>[] } | null => {
      const path = given(text);
      if (path === undefined) return null;
      const jwks = jsonFile(path);
      const keys = isObject(jwks) ? jwks['keys'] : undefined;
      if (!Array.isArray(keys) || !keys.length || !keys.every((key) => isObject(key) && typeof key['d'] === 'string'))
        throw new Problem(': the file holds a private JWKS, {"keys": [...]} with each key\'s private part');
      return { keys: keys.filter(isObject) };
    },
  }),
  oidcSubjectSecret: declare({
    env: 'ESIGN_OIDC_SUBJECT_SECRET',
    flag: '--oidc-subject-secret',
    takes: 'secret, 16 characters or more',
    what: "the key of sub, a digest of the person's country and code: keep it for as long as your users are kept. Default: ESIGN_VISITOR_SECRET, else the access token (a new token would give every person a new sub).",
    parse: (text) => {
      const secret = given(text);
      if (secret !== undefined && secret.length < 16) throw new Problem('must be 16 characters or more');
      return secret;
    },
  }),
  oidcCodeLifetimeS: declare({
    env: 'ESIGN_OIDC_CODE_LIFETIME',
    flag: '--oidc-code-lifetime',
    takes: `seconds, ${codeLifetime.range}`,
    what: 'how long an authorization code can be redeemed, once. Default 60 (a relying party redeems it at once; longer only widens the window of a stolen code).',
    parse: codeLifetime.parse,
  }),
  oidcStylesheet: declare({
    env: 'ESIGN_OIDC_STYLESHEET',
    flag: '--oidc-stylesheet',
    takes: 'CSS file',
    what: "your site's look for the hosted login page (the documented custom properties and ::part()s). Default none.",
    parse: (text) => {
      const path = given(text);
      if (path === undefined) return null;
      try {
        return readFileSync(path, 'utf8');
      } catch {
        throw new Problem(`: cannot read ${JSON.stringify(path)}`);
      }
    },
  }),
  shutdownMs: declare({
    env: 'ESIGN_SHUTDOWN_MS',
    flag: '--shutdown-ms',
    takes: 'ms',
    what: `how long SIGTERM waits for requests in flight. Default ${SHUTDOWN_MS} (a result hook's ${RESULT_TIMEOUT_MS / 1000} s and a margin).`,
    parse: milliseconds(SHUTDOWN_MS, true),
  }),
};

export type SettingKey = keyof typeof SETTINGS;
/** The settings in their order: --help's and the docs'. */
export const SETTING_KEYS: readonly SettingKey[] = keysOf(SETTINGS);
/** Each setting's value, as its parser gives it. */
export type SettingValues = { [K in SettingKey]: ReturnType<(typeof SETTINGS)[K]['parse']> };

/** A setting as the sentences name it: `PORT (--port)`. */
export const named = (key: SettingKey): string => `${SETTINGS[key].env} (${SETTINGS[key].flag})`;
