import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'openid-client';
import { freePort, scratchDir } from './processes.js';
import { until } from './wait.js';

/*
 * esign-proxy as an OpenID Provider, tried as a relying party and a browser would: clients and
 * keys in files as a host writes them, a browser that keeps cookies by their paths and follows no
 * redirect by itself, and openid-client (a certified relying party) on the site's side.
 */

export const SITE = 'http://127.0.0.1:9/callback';
export const OTHER_SITE = 'http://127.0.0.1:9/other-callback';

export interface OidcFiles {
  clients: string;
  keys: string;
  dir: string;
}

/** A confidential client (a site's server), a second one, and a public one (PKCE, no secret); a private JWKS. */
export function oidcFiles(): OidcFiles {
  const dir = scratchDir('oidc');
  const clients = join(dir, 'clients.json');
  writeFileSync(
    clients,
    JSON.stringify([
      { client_id: 'bank', client_secret: 'bank-secret-0123456789abcdef-0123', redirect_uris: [SITE], client_name: 'Test Bank' },
      { client_id: 'shop', client_secret: 'shop-secret-0123456789abcdef-0123', redirect_uris: [OTHER_SITE], client_name: 'Test Shop' },
      { client_id: 'spa', token_endpoint_auth_method: 'none', redirect_uris: [SITE], client_name: 'Test App' },
    ]),
  );
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys = join(dir, 'keys.json');
  writeFileSync(keys, JSON.stringify({ keys: [{ ...(privateKey.export({ format: 'jwk' }) as object), alg: 'RS256', use: 'sig', kid: 'test-1' }] }), {
    mode: 0o600,
  });
  return { clients, keys, dir };
}

/** esign-proxy's settings as an OpenID Provider on a port of this machine: the service, the files, a subject secret of the test's. */
export function providerSettings(port: number, service: { url: string; accessToken: string }, files: OidcFiles, subjectSecret: string): Record<string, string> {
  return {
    PORT: String(port),
    ESIGN_BASE_URL: service.url,
    ESIGN_ACCESS_TOKEN: service.accessToken,
    ESIGN_OIDC_ISSUER: `http://127.0.0.1:${port}/esign/oidc`,
    ESIGN_OIDC_CLIENTS: files.clients,
    ESIGN_OIDC_KEYS: files.keys,
    ESIGN_OIDC_SUBJECT_SECRET: subjectSecret,
  };
}

/** A browser of one person: cookies kept by name and path, redirects answered by the test. */
export class Browser {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  /** `origin` as the browser sees the site; `via`, where its requests really go (a TLS front's plain-http back end, as nginx reaches it). */
  constructor(
    readonly origin: string,
    readonly via = origin,
  ) {}

  #cookieHeader(path: string): string {
    return [...this.#cookies.entries()]
      .filter(([, cookie]) => path === cookie.path || path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .map(([key, cookie]) => `${key.split('\n')[0]}=${cookie.value}`)
      .join('; ');
  }

  /** Every cookie value this browser holds: what must never be found where the proxy keeps its state. */
  cookieValues(): string[] {
    return [...this.#cookies.values()].map((cookie) => cookie.value);
  }

  /** The value of a cookie this browser holds, by name (the first of that name); null: none. */
  cookie(name: string): string | null {
    for (const [key, cookie] of this.#cookies) if (key.split('\n')[0] === name) return cookie.value;
    return null;
  }

  /** Sets a cookie as a script or another program would (an attacker's own browser). */
  setCookie(name: string, value: string, path = '/'): void {
    this.#cookies.set(`${name}\n${path}`, { value, path });
  }

  #keep(answer: Response): void {
    for (const line of answer.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const path = attributes.find((a) => /^path=/i.test(a))?.slice(5) ?? '/';
      const expired = attributes.some((a) => /^max-age=0$/i.test(a) || /^expires=Thu, 01 Jan 1970/i.test(a));
      const key = `${name}\n${path}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { value: pair.slice(eq + 1), path });
    }
  }

  /** A request of this browser to its own origin: its cookies, its Origin on a POST. */
  async fetch(pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const answer = await this.fetchLost(pathOrUrl, init);
    this.#keep(answer);
    return answer;
  }

  /** A request whose answer never reaches this browser (a phone between networks): its cookies go, nothing of the answer is kept. */
  async fetchLost(pathOrUrl: string, init: RequestInit = {}): Promise<Response> {
    const url = new URL(pathOrUrl, this.origin);
    const sent = new URL(`${url.pathname}${url.search}`, this.via);
    const headers = new Headers(init.headers);
    const cookie = this.#cookieHeader(url.pathname);
    if (cookie) headers.set('cookie', cookie);
    if (init.method && init.method !== 'GET') headers.set('origin', this.origin);
    return fetch(url.origin === this.origin ? sent : url, { ...init, headers, redirect: 'manual' });
  }

  /** Follows this origin's redirects as a browser would; stops at one to another origin and gives its Location. */
  async navigate(pathOrUrl: string, init: RequestInit = {}): Promise<{ answer: Response; url: string }> {
    let url = new URL(pathOrUrl, this.origin).href;
    let answer = await this.fetch(url, init);
    for (let hops = 0; answer.status >= 300 && answer.status < 400 && hops < 10; hops++) {
      url = new URL(answer.headers.get('location') ?? '', url).href;
      if (new URL(url).origin !== this.origin) return { answer, url };
      answer = await this.fetch(url);
    }
    return { answer, url };
  }

  /**
   * A Smart-ID login through the proxy as the widget makes it: the start, then polls until the
   * answer. `via`: the widget's endpoint (the provider's page gives it its interaction's path).
   */
  async smartIdSession(code: string, country: string, via = '/esign'): Promise<{ token: string; answer: Record<string, unknown> }> {
    const start = await this.fetch(`${via}/smartid/login.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, country }),
    });
    const started = (await start.json()) as { token?: string };
    if (!started.token) throw new Error(`the login did not start: ${start.status} ${JSON.stringify(started)}`);
    let answer: Record<string, unknown> = {};
    await until(
      async () => {
        const poll = await this.fetch(`${via}/smartid/status/${started.token}.json`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        answer = (await poll.json()) as Record<string, unknown>;
        return answer['status'] !== 'waiting';
      },
      'the login answered',
      20_000,
      100,
    );
    return { token: started.token, answer };
  }

  /**
   * A person's Smart-ID login on the provider's page of an authorization request, continued by the
   * page's request, as a widget of before did; `during`, what happens between the login and its
   * continuation. The address the browser comes back to the site at, with the code, and the login's session token.
   */
  async loginOnPage(authorization: URL, code: string, during?: () => Promise<void>): Promise<{ back: string; token: string }> {
    const page = await this.navigate(authorization.href);
    const uid = interactionUid(page);
    if (!uid) throw new Error(`no interaction page: ${page.url}`);
    const token = await this.smartIdLogin(code, 'EE');
    await during?.();
    const continued = await this.fetch(`/esign/oidc/interaction/${uid}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    if (continued.status !== 200) throw new Error(`the login was not continued: ${continued.status} ${await continued.text()}`);
    return { back: (await this.navigate(((await continued.json()) as { location: string }).location)).url, token };
  }

  /** Logs in with Smart-ID through the proxy as the widget does; its session token. */
  async smartIdLogin(code: string, country: string, via = '/esign'): Promise<string> {
    const { token, answer } = await this.smartIdSession(code, country, via);
    if (answer['status'] !== 'ok') throw new Error(`the login ended ${JSON.stringify(answer)}`);
    return token;
  }
}

/** The interaction a login page is of: the authorization request's answer names its page's own address (Content-Location). */
export function interactionUid(page: { answer: Response; url: string }): string | undefined {
  const at = new URL(page.answer.headers.get('content-location') ?? page.url, page.url);
  return /\/interaction\/([^/]+)$/.exec(at.pathname)?.[1];
}

export interface AuthorizationRequest {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

export interface Relying {
  config: client.Configuration;
  /** The authorization request's URL and what the site keeps to check the answer. */
  request: (extra?: Record<string, string>) => Promise<AuthorizationRequest>;
  /** The code of a callback URL redeemed, as the site's server does. */
  redeem: (callback: string, asked: AuthorizationRequest) => Promise<client.TokenEndpointResponse & client.TokenEndpointResponseHelpers>;
}

/** The site's side: openid-client discovering the issuer (plain http on loopback only, allowed by the test). */
export async function relyingParty(issuer: string, clientId: string, secret: string | undefined, redirectUri = SITE): Promise<Relying> {
  const config = await client.discovery(
    new URL(issuer),
    clientId,
    secret ? { client_secret: secret } : { token_endpoint_auth_method: 'none' },
    secret ? undefined : client.None(),
    { execute: [client.allowInsecureRequests] },
  );
  return {
    config,
    request: async (extra = {}) => {
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const challenge = await client.calculatePKCECodeChallenge(verifier);
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile nin',
        state,
        nonce,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...extra,
      });
      return { url, verifier, state, nonce };
    },
    redeem: (callback, asked) =>
      client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: asked.verifier, expectedState: asked.state, expectedNonce: asked.nonce }),
  };
}

export { client, freePort };
