import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Sandbox } from 'esign-sandbox';
import { samplePdf } from 'esign-sandbox/sample-pdf';

/*
 * For the signing gate's check at the end: a service side that signs as somebody else than the
 * start asked for (a hostile or mistaken service), in front of a real sandbox that answers at once.
 */

export const GATE_PERSON = { phone: '+37060000666', code: '50001018865', country: 'LT' } as const;
export const OTHER_PERSON = { phone: '+37268000769', code: '60001017869' };
export const SIGN_PDF = { type: 'pdf', pdf: { files: [{ name: 'contract.pdf', content: Buffer.from(samplePdf('Impostor')).toString('base64') }] } };

export interface Impostor {
  /** The service side's base URL: starts reach the sandbox as the other person. */
  url: string;
  /** The sandbox itself, honest. */
  honest: string;
  close(): Promise<void>;
}

/** What the impostor does to a start by default: a Mobile-ID file signing goes to the other person. */
const toOtherPerson = (path: string, body: Record<string, unknown>) => (/\/mobile\/sign\.json$/.test(path) ? { ...body, ...OTHER_PERSON } : body);

export async function startImpostor(
  accessToken: string,
  change: (path: string, body: Record<string, unknown>) => Record<string, unknown> = toOtherPerson,
): Promise<Impostor> {
  const sandbox = new Sandbox({ accessToken, answerAfterMs: 0 });
  const servers: Server[] = [createServer(sandbox.handle)];
  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const honest = await listen(servers[0]!);
  const impostor = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      let body = Buffer.concat(chunks).toString('utf8');
      if (body) body = JSON.stringify(change(req.url ?? '', JSON.parse(body) as Record<string, unknown>));
      const answer = await fetch(`${honest}${req.url}`, { method: req.method!, headers: { 'content-type': 'application/json' }, ...(body ? { body } : {}) });
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  servers.push(impostor);
  const url = await listen(impostor);
  return {
    url,
    honest,
    close: async () => {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** A Mobile-ID file signing for the gate's person through a proxy, polled until it ends: the last answer. */
export function signThrough(proxyUrl: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return signingThrough(proxyUrl, '/mobile/sign.json', '/mobile/sign/status/', { ...GATE_PERSON, ...SIGN_PDF });
}

/** A file signing through a proxy as a browser makes it (its cookie kept), polled until it ends: the last answer. */
export async function signingThrough(
  proxyUrl: string,
  path: string,
  statusPath: string,
  body: Record<string, unknown>,
): Promise<{ status: number; json: Record<string, unknown> }> {
  let cookie = '';
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${proxyUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    const set = response.headers.getSetCookie()[0];
    if (set) cookie = set.split(';')[0]!;
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const start = await post(path, body);
  if (start.json['status'] !== 'ok') return start;
  for (let i = 0; ; i++) {
    await new Promise((resolve) => setTimeout(resolve, 600));
    const poll = await post(`${statusPath}${String(start.json['token'])}.json`, {});
    if (poll.json['status'] !== 'waiting' || i > 20) return poll;
  }
}

/** A file the sandbox at `sandboxUrl` signed by Smart-ID when asked directly (no proxy): its bytes. */
export async function signedDirectly(sandboxUrl: string, accessToken: string, body: Record<string, unknown>): Promise<Buffer> {
  const post = async (path: string, sent: object) =>
    (await (
      await fetch(`${sandboxUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...sent, access_token: accessToken }),
      })
    ).json()) as Record<string, any>;
  const start = await post('/smartid/sign.json', body);
  for (let i = 0; i < 40; i++) {
    const done = await post(`/smartid/sign/status/${String(start['token'])}.json`, {});
    if (done['status'] === 'ok') return Buffer.from(String(done['file']['content']), 'base64');
    if (done['status'] !== 'waiting') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the sandbox did not sign: ${JSON.stringify(start).slice(0, 200)}`);
}

/** A ZIP with one entry renamed to a name of the same length (in its local header and the central directory). */
export function renamedEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('names of one length only');
  const parts = zip.toString('latin1').split(from);
  if (parts.length !== 3) throw new Error(`${from} is not in the ZIP once, with its central directory entry`);
  return Buffer.from(parts.join(to), 'latin1');
}

/** The sandbox's OK person in Estonia; the same digits are another person in Lithuania. */
export const ESTONIAN = { code: '40504040001', country: 'EE' } as const;

/**
 * What every proxy must do with a person who is a country and a code, at the gate's far end: a
 * signing the service made for the same digits in another country is not handed over; a planted
 * high-numbered signature entry decides nothing, either way. `proxyFor` starts the proxy, gated to
 * the Estonian person, in front of the given service side.
 */
export async function countryAndAddedSignatureHold(
  accessToken: string,
  proxyFor: (serviceUrl: string) => Promise<{ url: string; log: () => string }>,
): Promise<void> {
  const toLithuania = (path: string, body: Record<string, unknown>) => (/\/smartid\/sign\.json$/.test(path) ? { ...body, country: 'LT' } : body);
  const impostor = await startImpostor(accessToken, toLithuania);
  try {
    const pdf = await proxyFor(impostor.url);
    const sameDigits = await signingThrough(pdf.url, '/smartid/sign.json', '/smartid/sign/status/', { ...ESTONIAN, ...SIGN_PDF });
    if (sameDigits.status !== 403 || sameDigits.json['proxy_error'] !== 'signer-mismatch')
      throw new Error(`the Lithuanian signature was handed over: ${JSON.stringify(sameDigits.json).slice(0, 200)}`);
    if (!/a finished smartIdSignStatus was signed by another person than the signer: not handed over/.test(pdf.log()))
      throw new Error(`not in the log: ${pdf.log().slice(-500)}`);
    const asice = (content: Buffer) => ({ type: 'asice', asice: { files: [{ name: 'terms.asice', content: content.toString('base64') }] } });
    const terms = { type: 'asice', asice: { files: [{ name: 'terms.txt', content: Buffer.from('The terms.').toString('base64') }] } };
    // the signer's own old signature planted as signatures9.xml; the service signs as the Lithuanian person
    const planted = renamedEntry(
      await signedDirectly(impostor.honest, accessToken, { ...ESTONIAN, ...terms }),
      'META-INF/signatures0.xml',
      'META-INF/signatures9.xml',
    );
    const fooled = await signingThrough((await proxyFor(impostor.url)).url, '/smartid/sign.json', '/smartid/sign/status/', { ...ESTONIAN, ...asice(planted) });
    if (fooled.status !== 403 || fooled.json['proxy_error'] !== 'signer-mismatch')
      throw new Error(`a planted entry decided the check: ${JSON.stringify(fooled.json).slice(0, 200)}`);
    // somebody else's signatures9.xml in an honest upload: the person's own signing is theirs
    const theirs = renamedEntry(
      await signedDirectly(impostor.honest, accessToken, { code: '30303039914', country: 'LT', ...terms }),
      'META-INF/signatures0.xml',
      'META-INF/signatures9.xml',
    );
    const honest = await signingThrough((await proxyFor(impostor.honest)).url, '/smartid/sign.json', '/smartid/sign/status/', {
      ...ESTONIAN,
      ...asice(theirs),
    });
    if (honest.json['status'] !== 'ok') throw new Error(`the person's own signing was refused: ${JSON.stringify(honest.json).slice(0, 200)}`);
  } finally {
    await impostor.close();
  }
}

/**
 * What every proxy of another language must do with its visitor cookie: mint the ids itself (a
 * planted value is replaced), keep its own, and write only a keyed digest of the visitor into its
 * events. `proxyFor` starts the proxy in front of the given service with the given token (its
 * limits wide); `visitorsOfStarts` reads the `visitor` of its `started` events once three are there.
 */
export async function visitorIsMintedAndDigested(
  token: string,
  proxyFor: (serviceUrl: string, token: string) => Promise<{ url: string; log: () => string }>,
  visitorsOfStarts: () => Promise<string[]>,
): Promise<void> {
  const service = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok', token: 'token-1', control_code: '1234' }));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  try {
    const proxy = await proxyFor(`http://127.0.0.1:${(service.address() as AddressInfo).port}`, token);
    const start = (cookie?: string) =>
      fetch(`${proxy.url}/smartid/login.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ code: '40504040001', country: 'EE' }),
      });
    const minted = (await start()).headers.getSetCookie()[0]?.split(';')[0] ?? '';
    if (!/^esign-visitor=[A-Za-z0-9_-]{46}$/.test(minted)) throw new Error(`no visitor id minted: ${minted}`);
    const planted = `esign-visitor=${'A'.repeat(46)}`;
    const replaced = (await start(planted)).headers.getSetCookie()[0]?.split(';')[0] ?? '';
    if (replaced === planted || !/^esign-visitor=[A-Za-z0-9_-]{46}$/.test(replaced)) throw new Error(`a planted id was not replaced: ${replaced}`);
    if ((await start(minted)).headers.getSetCookie().length) throw new Error('its own id was replaced');
    const digestOf = (cookie: string) =>
      createHmac('sha256', token)
        .update(`visitor:${cookie.split('=')[1]!}`)
        .digest('hex');
    const seen = await visitorsOfStarts();
    const expected = [digestOf(minted), digestOf(replaced), digestOf(minted)];
    if (JSON.stringify(seen) !== JSON.stringify(expected))
      throw new Error(`the events' visitors ${JSON.stringify(seen)}, not the keyed digests ${JSON.stringify(expected)}`);
    if (proxy.log().includes(minted.split('=')[1]!)) throw new Error("the cookie's value is in a log line");
  } finally {
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  }
}

/**
 * A login gives the browser a new visitor id with its result (the Node proxy's rule): the answer that
 * ends the login sets it; a late poll of the same session with the old id (the answer was lost on
 * the way) gets the same new id again; the session then answers the new id, and no other visitor.
 */
export async function loginRotatesVisitor(proxyFor: (serviceUrl: string) => Promise<{ url: string }>): Promise<void> {
  let starts = 0;
  const service = createServer((req, res) => {
    req.resume();
    const answer = req.url?.includes('/status/')
      ? { status: 'ok', person: { code: '40504040001', country: 'EE', name: 'OK', surname: 'TESTNUMBER' } }
      : { status: 'ok', token: ++starts === 1 ? 'login-token' : `other-token-${starts}`, control_code: '1234' };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  try {
    const proxy = await proxyFor(`http://127.0.0.1:${(service.address() as AddressInfo).port}`);
    const post = (path: string, cookie = '') =>
      fetch(`${proxy.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify(path.includes('/status/') ? {} : { code: '40504040001', country: 'EE' }),
      });
    const visitorOf = (answer: Response) =>
      answer.headers
        .getSetCookie()
        .map((line) => line.split(';')[0]!)
        .find((pair) => pair.startsWith('esign-visitor=')) ?? '';
    const before = visitorOf(await post('/smartid/login.json'));
    const stranger = visitorOf(await post('/smartid/login.json'));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 600)); // the proxies' floor between two polls of a session
    const ended = await post('/smartid/status/login-token.json', before);
    const after = visitorOf(ended);
    assert.equal(ended.status, 200);
    assert.equal(((await ended.json()) as { status: string }).status, 'ok');
    assert.match(after, /^esign-visitor=[A-Za-z0-9_-]{46}$/, "the login's answer sets a new visitor id");
    assert.notEqual(after, before);
    await pause();
    const late = await post('/smartid/status/login-token.json', before);
    assert.equal(late.status, 200, 'a late poll with the id the login replaced still gets the result');
    assert.equal(visitorOf(late), after, 'and the same new id with it');
    await pause();
    assert.equal((await post('/smartid/status/login-token.json', after)).status, 200, 'the new id follows the session on');
    await pause();
    assert.equal((await post('/smartid/status/login-token.json', stranger)).status, 404, 'no other visitor does');
  } finally {
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  }
}
