// A site that logs a person in through esign-proxy's OpenID Provider with openid-client (a certified
// relying party): the provider's own page at /login, or the widget on this site's page at
// /login-here. Behind the nginx block of docs/any-stack.md: /esign/ goes to esign-proxy, the rest here.
//
//   ISSUER=https://site.example/esign/oidc CLIENT_ID=site CLIENT_SECRET=… PORT=8080 node site.mjs
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import * as oidc from 'openid-client';

const { ISSUER, CLIENT_ID, CLIENT_SECRET, PORT = '8080', PUBLIC_URL = `http://127.0.0.1:${PORT}` } = process.env;
const REDIRECT_URI = `${PUBLIC_URL}/callback`;
// plain http only for an issuer on this machine (development and tests); https everywhere else
const loopback = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/.test(ISSUER);
const config = await oidc.discovery(new URL(ISSUER), CLIENT_ID, CLIENT_SECRET, undefined, loopback ? { execute: [oidc.allowInsecureRequests] } : {});

/** Sessions by a random id in a cookie: what the login asked (to check its answer), then the person. */
const sessions = new Map();
const cookieOf = (req) => /(?:^|;\s*)site-session=([A-Za-z0-9_-]+)/.exec(req.headers.cookie ?? '')?.[1];
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function authorizationRequest(res) {
  const id = randomBytes(18).toString('base64url');
  const verifier = oidc.randomPKCECodeVerifier();
  const asked = { verifier, state: oidc.randomState(), nonce: oidc.randomNonce() };
  sessions.set(id, { asked });
  res.setHeader('set-cookie', `site-session=${id}; Path=/; HttpOnly; SameSite=Lax`);
  return oidc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile nin',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: asked.state,
    nonce: asked.nonce,
    ui_locales: 'lt en',
  });
}

const page = (body, head = '') => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Site</title>${head}</head><body><main>${body}</main></body></html>`;

createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', PUBLIC_URL);
  const session = sessions.get(cookieOf(req));
  try {
    if (url.pathname === '/login') {
      const target = await authorizationRequest(res);
      return res.writeHead(302, { location: target.href }).end();
    }
    if (url.pathname === '/login-here') {
      // the form on this site's own page: the widget runs the login, then continues it to /callback
      const target = await authorizationRequest(res);
      const html = page(`<h1>Log in</h1><esign-identify endpoint="/esign" lang="en" authorize="${escape(target.href)}"></esign-identify>`, '<script type="module" src="/esign/cdn/esign-identify.js"></script>');
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; require-trusted-types-for 'script'; trusted-types lit-html esign-elements" }).end(html);
    }
    if (url.pathname === '/callback') {
      if (!session?.asked) return res.writeHead(400, { 'content-type': 'text/plain' }).end('No login was started here');
      const { asked } = session;
      delete session.asked;
      if (url.searchParams.get('error')) return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(`<p id="refused">Not logged in: ${escape(url.searchParams.get('error'))}</p>`));
      const tokens = await oidc.authorizationCodeGrant(config, url, { pkceCodeVerifier: asked.verifier, expectedState: asked.state, expectedNonce: asked.nonce });
      const claims = tokens.claims();
      // a new session id for the person (against fixation), the person a country and a code
      sessions.delete(cookieOf(req));
      const id = randomBytes(18).toString('base64url');
      sessions.set(id, { person: { sub: claims.sub, name: claims.name, country: claims.nin_issuing_country, code: claims.nin } });
      return res.writeHead(302, { location: '/', 'set-cookie': `site-session=${id}; Path=/; HttpOnly; SameSite=Lax` }).end();
    }
    if (url.pathname === '/') {
      const body = session?.person ? `<p id="greeting">Hello, ${escape(session.person.name)}</p>` : '<p><a href="/login">Log in</a> · <a href="/login-here">Log in on this page</a></p>';
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(body));
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  } catch (error) {
    console.error(`login failed: ${error?.error ?? error?.message ?? 'unknown'}`);
    res.writeHead(502, { 'content-type': 'text/plain' }).end('The login could not be completed');
  }
}).listen(Number(PORT), '127.0.0.1', () => console.log(`site on ${PUBLIC_URL}`));
