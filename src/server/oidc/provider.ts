import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { LoginResult } from '../../proxy/options.js';
import { ResultRefused } from '../../proxy/hand-over.js';
import { seal, unseal } from '../../proxy/sealed.js';
import type { ProxyStore } from '../../proxy/store.js';
import { isOneOf, isRecord } from '../../protocol/checks.js';
import { COUNTRIES, type Channel } from '../../protocol/types.js';
import type { OidcSettings } from '../settings.js';
import { CLAIMS_BY_SCOPE, claimsOf, subjectOf, type VerifiedPerson } from './claims.js';
import { endedPage, loginPage, NO_SITE, PAGE_CSS, PAGE_SCRIPT, refusedPage, type SiteLook } from './page.js';
import { pageLocale, type LanguageSources } from './page-language.js';
import { checkMessage } from '../../protocol/message.js';
import { providerStore, storeName } from './store-adapter.js';
import { isClientMetadata, jwksOf } from './library-input.js';
import { addressOf, basicClientId, CLIENT_AUTH_LIMITS, clientAuthLimit, type Blocked } from './client-auth-limit.js';

/*
 * esign-proxy as an OpenID Provider (panva's oidc-provider, certified): the authorization code flow
 * with PKCE, its state in the proxy's own store. The person logs in with <esign-identify> through
 * this very proxy; the verified login (never the browser's word) becomes the ID token's claims.
 *
 *   /auth?… ─200─> the page of a new interaction, at /interaction/<uid> (Content-Location)
 *   the page's widget starts and polls through /interaction/<uid>/… (its cookie comes with them);
 *   the poll that finds the login verified continues the interaction (onResult, once), and the
 *   page goes on to /auth/<uid> ─303─> redirect_uri?code=…
 *   the site's own page (the widget's `authorize`): onResult keeps the login by its session token,
 *   sealed, for this browser alone; POST /interaction/<uid>/login {token} ─> {location: /auth/<uid>}
 */

/** How long a verified login waits for its page to continue it. */
const LOGIN_KEPT_MS = 5 * 60_000;
/** How long an access token (and so userinfo with it) lives, and the other entries of one login. */
const TOKEN_LIFETIME_S = 600;
const MAX_BODY = 4096;

export interface OidcOptions {
  settings: OidcSettings;
  prefix: string;
  /** The proxy's store; a verified login is taken from it once, in one step. */
  store: ProxyStore & Required<Pick<ProxyStore, 'take'>>;
  /** The key the kept values are sealed with (the visitor secret). */
  sealSecret: string;
  /** The X-Forwarded-Host and -For of the front are the truth (nginx in front); the scheme is never a header's. */
  trustProxy: boolean;
  /** The visitor a request comes from, as the proxy's `result.visitor` names it; null: none. */
  visitorOf: (req: IncomingMessage) => string | null;
  log: (level: 'info' | 'warn' | 'error', msg: string, fields?: Record<string, string | number | undefined>) => void;
}

export interface OidcProvider {
  /** Answers a request under the issuer's path; false when the path is not the provider's. */
  handle: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** A verified login, kept until its page continues it (or five minutes). */
  loginVerified: (result: LoginResult) => Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reject(new Error('too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers }).end(body);
}

const json = (res: ServerResponse, status: number, body: unknown) => send(res, status, 'application/json', JSON.stringify(body));

/** The page's policy: scripts and styles of this origin only, Trusted Types, no frames; forms post here and to the client; images of this origin and the site's logo's. */
function pageCsp(formTargets: string[], site: SiteLook = NO_SITE): string {
  const logo = site.logo && URL.canParse(site.logo) ? new URL(site.logo).origin : null;
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    `img-src 'self' data:${logo ? ` ${logo}` : ''}`,
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join('')}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    'trusted-types lit-html esign-elements',
  ].join('; ');
}

/** A development key, made at start: said in the log, since no other node or restart signs alike. */
function developmentKeys(): { keys: Record<string, unknown>[] } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return { keys: [{ ...jwk, alg: 'RS256', use: 'sig', kid: `dev-${Date.now().toString(36)}` }] };
}

/**
 * The request as the library is to see it: esign-proxy serves plain http, so the scheme is the
 * issuer's (ESIGN_PUBLIC_SCHEME says TLS ends in front), never a header a browser could send;
 * the front's host and address only where the operator trusts the front.
 */
function asServedPublicly(req: IncomingMessage, scheme: 'https' | 'http', trustProxy: boolean): void {
  req.headers['x-forwarded-proto'] = scheme;
  if (!trustProxy) {
    delete req.headers['x-forwarded-host'];
    delete req.headers['x-forwarded-for'];
  }
}

/** Whether the request carries a cookie of this name. */
function hasCookie(req: IncomingMessage, name: string): boolean {
  return cookieOf(req, name) !== null;
}

function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

/** The `?lang=` of the page's language switch. */
const switchedLanguage = (req: IncomingMessage): string | null => new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('lang');

/** The same origin as the request: a POST that changes the login comes from this site's own page. */
function sameOrigin(req: IncomingMessage, trustProxy: boolean, scheme: 'https' | 'http'): boolean {
  const origin = req.headers.origin;
  if (!origin || !URL.canParse(origin)) return false;
  const forwardedHost = trustProxy
    ? String(req.headers['x-forwarded-host'] ?? '')
        .split(',')[0]
        ?.trim()
    : '';
  const host = forwardedHost || req.headers.host;
  const page = new URL(origin);
  return page.host === host && page.protocol === `${scheme}:`;
}

/** The ID tokens' algorithm: the first key's (RS256 unless the keys file says otherwise). */
function signingAlgorithm(keys: { keys: Record<string, unknown>[] }): 'RS256' | 'PS256' | 'ES256' | 'EdDSA' {
  const alg = keys.keys[0]?.['alg'];
  return alg === 'PS256' || alg === 'ES256' || alg === 'EdDSA' ? alg : 'RS256';
}

const amrOf = (channel: Channel): string[] => (channel === 'mobile' ? ['hwk', 'pin', 'mfa'] : ['swk', 'pin', 'mfa']);

export async function createOidcProvider(options: OidcOptions): Promise<OidcProvider> {
  const { settings, store, sealSecret, prefix, log } = options;
  const library = await import('oidc-provider').catch((error: unknown) => {
    if (error instanceof Error && 'code' in error && error.code === 'ERR_MODULE_NOT_FOUND')
      throw new Error('ESIGN_OIDC_ISSUER needs the oidc-provider package: npm install oidc-provider');
    throw error;
  });
  const { Provider, errors, interactionPolicy } = library;
  const mount = new URL(settings.issuer).pathname.replace(/\/+$/, '');
  const scheme = new URL(settings.issuer).protocol === 'https:' ? 'https' : 'http';
  // behind https, every cookie of the provider is Secure (the library sets it once it sees https) and named __Secure-, which no plain-http page can set
  const cookieNames =
    scheme === 'https' ? { session: '__Secure-esign-session', interaction: '__Secure-esign-interaction', resume: '__Secure-esign-resume' } : undefined;
  const keys = settings.keys ?? developmentKeys();
  if (!settings.keys)
    log(
      'warn',
      'ESIGN_OIDC_KEYS is not set: the ID tokens are signed with a key made at start, for development only (a restart or a second node signs with another key)',
      { code: 'oidc-development-key' },
    );
  if (settings.subjectSecretFrom !== 'setting')
    log('warn', `ESIGN_OIDC_SUBJECT_SECRET is not set: sub is keyed with the ${settings.subjectSecretFrom}; changing that changes every person's sub`, {
      code: 'oidc-subject-secret',
    });

  const policy = interactionPolicy.base();
  // every authorization asks the person: no silent login from an earlier one (prompt=none is refused login_required)
  policy
    .get('login')
    ?.checks.add(
      new interactionPolicy.Check('esign_every_time', 'every authorization asks the person', (ctx) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
      ),
    );

  const interactionPathOf = (uid: string) => `${mount}/interaction/${encodeURIComponent(uid)}`;
  const accountKey = (sub: string) => `oidc:account:${storeName(sealSecret, 'account', sub)}`;
  /** What the library keeps, in seconds: each as long as it is read, no longer. */
  const lifetimes = {
    AuthorizationCode: settings.codeLifetimeS,
    Interaction: TOKEN_LIFETIME_S,
    Session: TOKEN_LIFETIME_S,
    // read by every use of an access token (userinfo): the code's time, then the token's
    Grant: settings.codeLifetimeS + TOKEN_LIFETIME_S,
    AccessToken: TOKEN_LIFETIME_S,
    IdToken: TOKEN_LIFETIME_S,
  };
  const lifetimeByModel = new Map<string, number>(Object.entries(lifetimes));
  /** A person's claims as a node of before kept them, apart from the grant (read only where the grant carries none). */
  const personKeptApart = async (sub: string): Promise<VerifiedPerson | null> => {
    const sealed = await store.get(accountKey(sub));
    const text = sealed === null ? null : unseal(sealSecret, sealed);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- sealed by this proxy (AES-GCM): its own JSON, unchanged
    return text === null ? null : (JSON.parse(text) as VerifiedPerson);
  };
  const oidcStore = providerStore({
    store,
    secret: sealSecret,
    alreadyConsumed: () => new errors.InvalidGrant('authorization code already consumed'),
    lifetimeOf: (model) => lifetimeByModel.get(model),
    request: () => Provider.ctx,
  });
  /**
   * The person of a login, kept with its grant: read with the grant (the code's redemption reads
   * it first; userinfo after the account, so here), no entry of its own to write and read.
   */
  const personOfGrant = async (request: object, sub: string, grantId: string | undefined): Promise<VerifiedPerson | null> => {
    if (grantId) {
      if (!oidcStore.carried(request, 'Grant', grantId)) await provider.Grant.find(grantId);
      const kept = oidcStore.carried(request, 'Grant', grantId);
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- sealed by this proxy (AES-GCM) with the grant: its own JSON, unchanged
      if (kept && kept['sub'] === sub) return kept['person'] as VerifiedPerson;
    }
    return personKeptApart(sub);
  };

  /** The site as its registration draws it on the pages: its name, logo and way home (client_uri, else its redirect's origin). */
  const siteOf = (client: {
    clientName?: string | undefined;
    logoUri?: string | undefined;
    clientUri?: string | undefined;
    readonly redirectUris?: readonly string[] | undefined;
  }): SiteLook => {
    const redirect = client.redirectUris?.find((uri) => URL.canParse(uri));
    return {
      name: client.clientName?.trim() || null,
      logo: client.logoUri ?? null,
      home: client.clientUri ?? (redirect ? `${new URL(redirect).origin}/` : null),
    };
  };
  const defaultLocales = (client: { metadata: () => Record<string, unknown> }): string | undefined => {
    const value = client.metadata()['default_ui_locales'];
    return typeof value === 'string' ? value : undefined;
  };

  /*
   * The pages' own cookie: which client this browser's login was for (so that an ended page can
   * offer the way back to it) and the language the person chose on the page. Neither is secret.
   */
  const pageCookieName = scheme === 'https' ? '__Secure-esign-page' : 'esign-page';
  const pageCookie = (req: IncomingMessage): { client: string | null; language: string | null } => {
    const raw = cookieOf(req, pageCookieName);
    let text = '';
    try {
      text = raw ? decodeURIComponent(raw) : '';
    } catch {
      // a cookie this page never set (malformed escapes): as if there were none
    }
    const values = new URLSearchParams(text);
    return { client: values.get('c'), language: values.get('l') };
  };
  const setPageCookie = (res: ServerResponse, client: string, language: string | null): void => {
    const value = encodeURIComponent(new URLSearchParams({ c: client, ...(language ? { l: language } : {}) }).toString());
    // beside any cookie the library set on this answer, never in its place
    res.appendHeader('set-cookie', `${pageCookieName}=${value}; Path=${mount}/; Max-Age=86400; HttpOnly; SameSite=Lax${scheme === 'https' ? '; Secure' : ''}`);
  };

  const provider = new Provider(settings.issuer, {
    adapter: oidcStore.adapter,
    clients: settings.clients.filter(isClientMetadata),
    jwks: jwksOf(keys),
    cookies: { keys: [createHmac('sha256', sealSecret).update('esign-oidc cookies').digest('base64url')], ...(cookieNames ? { names: cookieNames } : {}) },
    // auth_time and amr in every ID token (the login's), beside the claims of the scopes granted
    claims: { sid: null, iss: null, ...Object.fromEntries(Object.entries(CLAIMS_BY_SCOPE).map(([scope, claims]) => [scope, [...claims]])) },
    scopes: Object.keys(CLAIMS_BY_SCOPE),
    // the scope's claims in the ID token too: a client reads the person without a second call
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    // ID tokens signed with the first key's algorithm (RS256 unless the keys say otherwise): every client's default
    clientDefaults: { grant_types: ['authorization_code'], response_types: ['code'], id_token_signed_response_alg: signingAlgorithm(keys) },
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    // the hosted page's language when neither the request nor the browser names one it speaks
    extraClientMetadata: {
      properties: ['default_ui_locales'],
      validator: (_ctx, key, value) => {
        if (key === 'default_ui_locales' && value !== undefined && typeof value !== 'string')
          throw new errors.InvalidClientMetadata('default_ui_locales is a string of language tags, e.g. "lv et"');
      },
    },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    ttl: lifetimes,
    interactions: { policy, url: (_ctx, interaction) => interactionPathOf(interaction.uid) },
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.canParse(uri) && new URL(uri).origin === origin) ?? false,
    // no token ends with a session: none is kept (the store adapter's NoSessions)
    expiresWithSession: () => false,
    findAccount: async (ctx, sub, token) => {
      // the login's last step (no token yet) reads nothing: the login wrote the claims a moment
      // before, and the code's redemption, which reads them, is refused if they are gone
      if (!token)
        return {
          accountId: sub,
          claims: async () => {
            const grantId = ctx.oidc.result?.['consent']?.['grantId'];
            const person = await personOfGrant(ctx, sub, typeof grantId === 'string' ? grantId : undefined);
            if (!person) throw new Error("the person's claims are no longer kept");
            return claimsOf(person, sub);
          },
        };
      const person = await personOfGrant(ctx, sub, token.grantId);
      return person ? { accountId: sub, claims: () => claimsOf(person, sub) } : undefined;
    },
    renderError: (ctx, out) => {
      const code = String(out['error']);
      // a client known but its redirect not registered: the site is known, its registered home the way back
      const client = code === 'invalid_client' ? undefined : ctx.oidc?.client;
      const site = client ? siteOf(client) : NO_SITE;
      const { language } = pageLocale({
        chosen: pageCookie(ctx.req).language,
        uiLocales: ctx.oidc?.params?.['ui_locales'],
        acceptLanguage: ctx.get('accept-language'),
        clientDefault: client ? defaultLocales(client) : undefined,
      });
      const kind = code === 'invalid_client' || code === 'invalid_redirect_uri' ? 'site-not-set-up' : 'request-unusable';
      ctx.type = 'html';
      ctx.set('content-security-policy', pageCsp([], site));
      ctx.body = refusedPage(
        language,
        { mount, site, hasLook: settings.stylesheet !== null },
        kind,
        `${code}: ${String(out['error_description'] ?? '')}`.slice(0, 300),
      );
    },
  });
  // the scheme and host as asServedPublicly leaves them: the library reads them from the headers it was given
  provider.proxy = true;
  // the library is a Koa app: an error it does not answer itself is one JSON line, never a stack trace on stderr
  provider.onerror = (error: unknown) =>
    log('error', `OpenID Provider: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300), { code: 'oidc-unexpected' });
  provider.on('server_error', (_ctx, error) => log('error', `OpenID Provider: ${error.message}`, { code: 'oidc-server-error' }));
  provider.on('grant.error', (ctx, error) => {
    const described = 'error_description' in error && typeof error.error_description === 'string' ? error.error_description : '';
    log('warn', `OpenID Provider: a token request refused: ${error.message}${described ? ` (${described})` : ''}`, {
      code: 'oidc-grant-refused',
      client: ctx.oidc?.client?.clientId ?? basicClientId(ctx.get('authorization') || undefined) ?? undefined,
      reason: error.message,
    });
  });
  /*
   * The login page drawn by the authorization request's own answer, not by a redirect to it: one
   * round trip less before the person sees the form. The interaction's cookies are set as for the
   * redirect, and its page lives on at the interaction's address (Content-Location), where a
   * language switch goes.
   */
  provider.use(async (ctx, next) => {
    await next();
    const context: unknown = Reflect.get(ctx, 'oidc');
    const entities = isRecord(context) && context['route'] === 'authorization' ? context['entities'] : undefined;
    const interaction = isRecord(entities) ? entities['Interaction'] : undefined;
    if (!(interaction instanceof provider.Interaction) || ctx.status !== 303 || ctx.response.get('location') !== interactionPathOf(interaction.uid)) return;
    ctx.respond = false;
    for (const name of ['location', 'content-type', 'content-length']) ctx.res.removeHeader(name);
    await drawPage(ctx.req, ctx.res, interaction.uid, interaction.params);
  });
  const authLimit = clientAuthLimit(store, sealSecret, CLIENT_AUTH_LIMITS);
  const tooMany = (ctx: { status: number; body: unknown; set: (name: string, value: string) => void }, blocked: Blocked) => {
    ctx.status = 429;
    ctx.set('retry-after', String(blocked.retryAfterS));
    ctx.set('cache-control', 'no-store');
    ctx.body = {
      error: 'invalid_request',
      error_description: `too many failed client authentications from this ${blocked.scope}: try again in ${blocked.retryAfterS} s`,
    };
  };
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== '/token') {
      await next();
      return;
    }
    const address = addressOf(ctx.req, options.trustProxy);
    const basic = basicClientId(ctx.get('authorization') || undefined);
    const before = await authLimit.blocked(address, basic);
    if (before) return tooMany(ctx, before);
    await next();
    if (ctx.status !== 401 || !isRecord(ctx.body) || ctx.body['error'] !== 'invalid_client') return;
    const context: unknown = Reflect.get(ctx, 'oidc');
    const params = isRecord(context) ? context['params'] : undefined;
    const sent = isRecord(params) ? params['client_id'] : undefined;
    const clientId = basic ?? (typeof sent === 'string' ? sent : null);
    for (const scope of await authLimit.failed(address, clientId)) {
      log(
        'warn',
        `OpenID Provider: ${scope === 'address' ? CLIENT_AUTH_LIMITS.perAddress : CLIENT_AUTH_LIMITS.perClient} failed client authentications of one ${scope} in ${CLIENT_AUTH_LIMITS.windowMs / 60_000} minutes: its token requests are refused 429 until the window ends`,
        { code: 'oidc-client-auth-limit', scope, ...(scope === 'client' && clientId ? { client: clientId } : {}) },
      );
    }
    const after = await authLimit.blocked(address, clientId);
    if (after) tooMany(ctx, after);
  });
  // made once every middleware is in: Koa composes them here
  const callback = provider.callback();

  // the session token is the widget's credential for its polls: its login is kept under a digest of
  // it and of the browser's visitor, so that only that browser, with that token, can find it
  const continuedName = (token: string) => storeName(sealSecret, 'polled', token);
  const loginKey = (visitor: string, token: string) => `oidc:login:${storeName(sealSecret, 'login', `${visitor} ${token}`)}`;

  async function interactionOf(req: IncomingMessage, res: ServerResponse, uid: string) {
    try {
      const details = await provider.interactionDetails(req, res);
      return details.uid === uid ? details : null;
    } catch {
      return null;
    }
  }

  const findClient = async (clientId: unknown) => (typeof clientId === 'string' && clientId ? await provider.Client.find(clientId) : undefined);

  /** The ended page: in the language the person chose, else the browser's; the way back to the site this browser's login was for. */
  async function ended(req: IncomingMessage, res: ServerResponse, status: number): Promise<void> {
    const kept = pageCookie(req);
    const client = await findClient(kept.client);
    const site = client ? siteOf(client) : NO_SITE;
    const chosen = switchedLanguage(req);
    const { language } = pageLocale({
      chosen: chosen ?? kept.language,
      acceptLanguage: req.headers['accept-language'],
      clientDefault: client ? defaultLocales(client) : undefined,
    });
    if (chosen && client && language === chosen) setPageCookie(res, client.clientId, language);
    send(res, status, 'text/html; charset=utf-8', endedPage(language, { mount, site, hasLook: settings.stylesheet !== null }), {
      'content-security-policy': pageCsp([], site),
    });
  }

  /** What the phone shows beside the request: the site's name where it fits both methods' limits; else the service's own words. */
  const phoneMessageOf = (name: string | null): string | null => (name && !checkMessage(name).problem ? name : null);

  /**
   * The login page of an interaction, for the browser that holds it: in the language the person
   * chose, else the request's, the browser's or the site's; the page cookie beside the library's.
   */
  async function drawPage(req: IncomingMessage, res: ServerResponse, uid: string, params: Record<string, unknown>): Promise<void> {
    const client = await findClient(params['client_id']);
    const site = client ? siteOf(client) : NO_SITE;
    const kept = pageCookie(req);
    const switched = switchedLanguage(req);
    const sameClient = client !== undefined && kept.client === client.clientId;
    const sources: LanguageSources = {
      chosen: switched ?? (sameClient ? kept.language : null),
      uiLocales: params['ui_locales'],
      acceptLanguage: req.headers['accept-language'],
      clientDefault: client ? defaultLocales(client) : undefined,
      loginHint: params['login_hint'],
    };
    const locale = pageLocale(sources);
    if (client) setPageCookie(res, client.clientId, switched && locale.language === switched ? locale.language : sameClient ? kept.language : null);
    const redirect = params['redirect_uri'];
    const targets = typeof redirect === 'string' && URL.canParse(redirect) ? [new URL(redirect).origin] : [];
    send(
      res,
      200,
      'text/html; charset=utf-8',
      loginPage({
        language: locale.language,
        country: locale.country,
        site,
        phoneMessage: phoneMessageOf(site.name),
        prefix,
        mount,
        interaction: interactionPathOf(uid),
        hasLook: settings.stylesheet !== null,
      }),
      {
        'content-security-policy': pageCsp(targets, site),
        // same-origin: the page's own posts carry its Origin (no-referrer makes it "null"); no other site learns the page's address
        'referrer-policy': 'same-origin',
        // the page in another language is another page at the same address
        vary: 'accept-language, cookie',
        // the interaction's own address, where the page drawn by the authorization request lives on (the widget's `authorize` reads it)
        'content-location': interactionPathOf(uid),
      },
    );
  }

  async function page(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const details = await interactionOf(req, res, uid);
    if (!details) return ended(req, res, 410);
    await drawPage(req, res, uid, details.params);
  }

  /** A verified person into the interaction: the grant of the scopes asked, the login's result; where the browser goes next. */
  async function continueInteraction(
    details: Awaited<ReturnType<typeof provider.interactionDetails>>,
    person: VerifiedPerson,
    byPollOf: string | null = null,
  ): Promise<string> {
    const sub = subjectOf(person.country, person.code, settings.subjectSecret);
    const clientId = String(details.params['client_id']);
    // the grant's id is the proxy's, so that its record can carry the person, and the interaction's the grant
    const grantId = randomBytes(32).toString('base64url');
    const grant = new provider.Grant({ accountId: sub, clientId });
    grant.jti = grantId;
    const asked = typeof details.params['scope'] === 'string' ? details.params['scope'].split(' ') : [];
    grant.addOIDCScope(asked.filter((scope) => scope in CLAIMS_BY_SCOPE).join(' '));
    const written = oidcStore.together(
      [
        ['Grant', grantId],
        ['Interaction', details.uid],
      ],
      { sub, person },
    );
    try {
      await grant.save();
      // the interaction's result, as the library's interactionResult keeps it, from the interaction already read (no second read)
      details.result = {
        login: { accountId: sub, amr: amrOf(person.channel), ts: person.authTime },
        consent: { grantId },
        // continued by the poll of this session token (a digest): a widget of before may still ask where to go
        ...(byPollOf ? { esignPolled: continuedName(byPollOf) } : {}),
      };
      await details.save(Math.max(1, (details.exp ?? 0) - Math.floor(Date.now() / 1000)));
    } finally {
      written();
    }
    log('info', 'OpenID Provider: a verified login continued to its client', { code: 'oidc-login', uid: details.uid, client: clientId });
    return details.returnTo;
  }

  /** The verified login of this browser, taken once, into the interaction: where the browser goes next. */
  async function login(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    if (!sameOrigin(req, options.trustProxy, scheme))
      return json(res, 403, { status: 'error', code: 'cross-site', message: "A login is continued from this site's own pages" });
    let token: unknown;
    try {
      const body: unknown = JSON.parse(await readBody(req));
      token = isRecord(body) ? body['token'] : undefined;
    } catch {
      return json(res, 400, { status: 'error', code: 'invalid-input', message: 'A JSON body with the session token' });
    }
    if (typeof token !== 'string' || !/^[A-Za-z0-9._~-]{1,200}$/.test(token))
      return json(res, 400, { status: 'error', code: 'invalid-input', message: 'A JSON body with the session token' });
    const details = await interactionOf(req, res, uid);
    if (!details) return json(res, 410, { status: 'error', code: 'session-not-found', message: 'This login has ended: start it again from the site' });
    // continued already by its last poll, and a widget of before asks again with that session's token: where to go
    if (details.result?.['esignPolled'] === continuedName(token)) return json(res, 200, { location: details.returnTo });
    const visitor = options.visitorOf(req);
    // taken once: of two continuations at once, one finds it
    const sealed = visitor === null ? null : await store.take(loginKey(visitor, token));
    const text = sealed === null ? null : unseal(sealSecret, sealed);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- sealed by this proxy (AES-GCM): its own JSON, unchanged
    const kept = text === null ? null : (JSON.parse(text) as { visitor: string; person: VerifiedPerson });
    if (!kept || kept.visitor !== visitor) {
      log('warn', 'OpenID Provider: a login to continue that this browser did not make, or that was continued already', { code: 'oidc-login-unknown', uid });
      return json(res, 404, { status: 'error', code: 'session-not-found', message: 'No verified login of this browser to continue' });
    }
    json(res, 200, { location: await continueInteraction(details, kept.person) });
  }

  /** The person turned back, or the page ends the login after a refusal: access_denied, as the standard says. */
  async function abort(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    if (!sameOrigin(req, options.trustProxy, scheme))
      return json(res, 403, { status: 'error', code: 'cross-site', message: "A login is ended from this site's own pages" });
    const details = await interactionOf(req, res, uid);
    if (!details) return ended(req, res, 410);
    const location = await provider.interactionResult(
      req,
      res,
      { error: 'access_denied', error_description: 'The person did not log in' },
      { mergeWithLastSubmission: false },
    );
    res.writeHead(303, { location, 'cache-control': 'no-store' }).end();
  }

  const mountPattern = mount.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const resumePath = new RegExp(`^${mountPattern}/auth/[^/]+$`);
  /** The page's widget's login requests, through its interaction: a start, a status poll (its token), a session's removal; in English or not. */
  const throughInteraction = new RegExp(
    `^${mountPattern}/interaction/([A-Za-z0-9_-]{1,64})((?:/en)?(?:/(?:smartid|mobile)/(?:login\\.json|status/([A-Za-z0-9_-]{1,200})\\.json)|/api/(?:smartid|mobile)/session/[A-Za-z0-9_-]{1,200}))$`,
  );
  /** The status polls through an interaction: the one that finds the login verified continues that interaction (its request is the result's). */
  const pollsThrough = new WeakMap<IncomingMessage, { res: ServerResponse; uid: string }>();
  const interactionCookie = cookieNames?.interaction ?? '_interaction';
  const interactionPath = new RegExp(`^${mountPattern}/interaction/([A-Za-z0-9_-]{1,64})(/login|/abort)?$`);

  return {
    handle(req, res) {
      const url = req.url ?? '/';
      const path = url.split('?')[0] ?? '/';
      if (path !== mount && !path.startsWith(`${mount}/`)) return false;
      const through = throughInteraction.exec(path);
      if (through) {
        // the proxy's own request, as the widget of any page makes it; its poll remembered for the login's continuation
        const [, uid = '', operation = '', token] = through;
        if (token) pollsThrough.set(req, { res, uid });
        req.url = `${prefix}${operation}${url.slice(path.length)}`;
        // a start only with the interaction's cookie, which the browser drops when the interaction ends: no
        // phone is asked for a login that cannot go on (its poll checks the cookie's signature and the store)
        if (!operation.endsWith('/login.json') || cookieOf(req, interactionCookie) === uid) return false;
        req.resume();
        json(res, 404, { status: 'error', error_code: 40402, message: 'This login has ended: start it again from the site' });
        return true;
      }
      asServedPublicly(req, scheme, options.trustProxy);
      const failed = (error: unknown) => {
        log('error', `OpenID Provider: ${error instanceof Error ? error.message : String(error)}`, { code: 'oidc-failed' });
        if (!res.headersSent) json(res, 500, { status: 'error', code: 'service-error', message: 'The login could not go on' });
      };
      if (req.method === 'GET' && path === `${mount}/page.css`) {
        send(res, 200, 'text/css; charset=utf-8', PAGE_CSS, { 'cache-control': 'public, max-age=3600' });
        return true;
      }
      if (req.method === 'GET' && path === `${mount}/page.js`) {
        send(res, 200, 'text/javascript; charset=utf-8', PAGE_SCRIPT, { 'cache-control': 'public, max-age=3600' });
        return true;
      }
      if (req.method === 'GET' && path === `${mount}/look.css` && settings.stylesheet !== null) {
        send(res, 200, 'text/css; charset=utf-8', settings.stylesheet, { 'cache-control': 'public, max-age=300' });
        return true;
      }
      const interaction = interactionPath.exec(path);
      if (interaction) {
        const [, uid = '', action] = interaction;
        if (!action && req.method === 'GET') page(req, res, uid).catch(failed);
        else if (action === '/login' && req.method === 'POST') login(req, res, uid).catch(failed);
        else if (action === '/abort' && req.method === 'POST') abort(req, res, uid).catch(failed);
        else json(res, 405, { status: 'error', message: 'Method not allowed' });
        return true;
      }
      // the login's last step in a browser that has not its login's cookie (another browser, a link sent on, a bot):
      // the library has nothing to go on, and answers it with an error of its own (a 500); it is the ended page
      if (req.method === 'GET' && resumePath.test(path) && !hasCookie(req, cookieNames?.resume ?? '_interaction_resume')) {
        log('warn', "OpenID Provider: a login's last step without its cookie (another browser, or a link opened again): answered 400", {
          code: 'oidc-resume-without-cookie',
        });
        ended(req, res, 400).catch(failed);
        return true;
      }
      // the library's own routes, seen as if mounted at the issuer's path (as a framework's router would strip it)
      Object.assign(req, { originalUrl: url });
      req.url = url.slice(mount.length) || '/';
      void callback(req, res);
      return true;
    },
    async loginVerified(result) {
      const { code, country, name, surname } = result.result;
      if (!isOneOf(COUNTRIES, country) || typeof code !== 'string') return;
      const person: VerifiedPerson = {
        country,
        code,
        givenName: String(name ?? ''),
        familyName: String(surname ?? ''),
        channel: result.channel,
        authTime: Math.floor(Date.now() / 1000),
      };
      // the provider's page: its poll, through the interaction, continues it now (taken once: the proxy hands a result over once)
      const req = result.request.raw;
      const poll = req instanceof IncomingMessage ? pollsThrough.get(req) : undefined;
      if (req instanceof IncomingMessage && poll) {
        const details = await interactionOf(req, poll.res, poll.uid);
        if (!details) throw new ResultRefused(410, 'the login at the OpenID Provider has ended (its interaction is no longer kept for this browser)');
        await continueInteraction(details, person, result.token);
        return;
      }
      await store.set(loginKey(result.visitor, result.token), seal(sealSecret, JSON.stringify({ visitor: result.visitor, person })), LOGIN_KEPT_MS);
    },
  };
}
