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

export async function startImpostor(accessToken: string): Promise<Impostor> {
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
      if (/\/mobile\/sign\.json$/.test(req.url ?? '') && body) body = JSON.stringify({ ...(JSON.parse(body) as object), ...OTHER_PERSON });
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
export async function signThrough(proxyUrl: string): Promise<{ status: number; json: Record<string, unknown> }> {
  let cookie = '';
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${proxyUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
    const set = response.headers.getSetCookie()[0];
    if (set) cookie = set.split(';')[0]!;
    return { status: response.status, json: (await response.json()) as Record<string, unknown> };
  };
  const start = await post('/mobile/sign.json', { ...GATE_PERSON, ...SIGN_PDF });
  if (start.json['status'] !== 'ok') return start;
  for (let i = 0; ; i++) {
    await new Promise((resolve) => setTimeout(resolve, 600));
    const poll = await post(`/mobile/sign/status/${String(start.json['token'])}.json`, {});
    if (poll.json['status'] !== 'waiting' || i > 20) return poll;
  }
}
