import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { madeUpPersonalCode } from '../../service/rules.js';
import { Jar, type Check, type Prober } from '../prober.js';

const ID = '0b0e0000-0000-4000-8000-000000000001';

/** A browser-sent access token, its look-alikes and unknown fields never reach the service; the proxy's token goes once. */
export const fields: Check = {
  id: 'fields',
  rule: "only the operation's own fields go up: browser-sent token fields and unknown fields are dropped",
  async run({ post, mark, reachedSince, show, accessToken }) {
    const before = mark();
    const body = {
      code: madeUpPersonalCode(1),
      country: 'LT',
      access_token: 'from-the-browser',
      ACCESS_TOKEN: 'x',
      accessToken: 'x',
      'access-token': 'x',
      'access_token ': 'x',
      probe_unknown_field: 'x',
      token: ID,
    };
    const answer = await post('/smartid/login.json', body);
    const reached = reachedSince(before)[0];
    if (!reached) return show('POST /smartid/login.json with extra fields', answer) + ' (nothing reached the service)';
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- what the check's own sandbox received, as JSON it checked on arrival
    const sent = JSON.parse(reached.body) as Record<string, unknown>;
    const extra = Object.keys(sent).filter((key) => !['code', 'country', 'access_token'].includes(key));
    const tokens = (reached.body.match(/"access_token"/g) ?? []).length;
    return extra.length || sent['access_token'] !== accessToken || tokens !== 1 ? `the service received ${reached.body.slice(0, 300)}` : null;
  },
};

/** Each body sent as its content type must get 415 and reach nothing; the first that does not is the evidence. */
async function refusedAsNotJson(
  { send, mark, reachedSince, show }: Prober,
  bodies: [type: string | null, body: string, label: string][],
): Promise<string | null> {
  let failure: string | null = null;
  for (const [type, body, label] of bodies) {
    const before = mark();
    const answer = await send({ method: 'POST', path: '/smartid/login.json', body, contentType: type, jar: new Jar() });
    if (answer.status !== 415 || reachedSince(before).length) failure ??= show(`POST /smartid/login.json as ${label}`, answer);
  }
  return failure;
}

/** A body sent as anything but JSON is refused. */
export const jsonOnly: Check = {
  id: 'json-only',
  rule: 'a body that is not application/json gets 415 and is not forwarded',
  run: (prober) => {
    const json = JSON.stringify({ code: '30303039914', country: 'LT' });
    return refusedAsNotJson(
      prober,
      ['text/plain', 'application/x-www-form-urlencoded', null].map((type) => [type, json, type ?? 'no content type']),
    );
  },
};

/** Real form bodies, whatever parser a host's framework runs before the proxy. */
export const formBodies: Check = {
  id: 'form-bodies',
  rule: 'form-encoded, nested-form, multipart and text bodies get 415 and are not forwarded',
  run: (prober) => {
    const forms: [string, string][] = [
      ['application/x-www-form-urlencoded', 'code=30303039914&country=LT'],
      ['application/x-www-form-urlencoded', 'person[code]=30303039914&person[country]=LT&code=30303039914&country=LT'],
      [
        'multipart/form-data; boundary=probe',
        '--probe\r\nContent-Disposition: form-data; name="code"\r\n\r\n30303039914\r\n--probe\r\nContent-Disposition: form-data; name="country"\r\n\r\nLT\r\n--probe--\r\n',
      ],
      ['text/plain', 'code=30303039914'],
    ];
    return refusedAsNotJson(
      prober,
      forms.map(([type, body]) => [type, body, `${type}: ${body.slice(0, 40)}`]),
    );
  },
};

/** Start fields of a shape the service never takes are refused before they are counted or forwarded. */
export const fieldShapes: Check = {
  id: 'field-shapes',
  rule: 'start fields of a length or characters the service never takes (personal code, phone, country) get 400 and are not forwarded',
  async run({ post, mark, reachedSince, show }) {
    let failure: string | null = null;
    const smartId: object[] = [
      { code: '4'.repeat(8 * 1024), country: 'LT' },
      { code: 'x'.repeat(200), country: 'LT' },
      { code: "40504040001' OR '1'='1", country: 'LT' },
      { code: '4050404000', country: 'LT' },
      { code: '40504040001', country: 'L'.repeat(4096) },
    ];
    const mobile: object[] = [
      { phone: `+370${'6'.repeat(4096)}`, code: '50001018865' },
      { phone: '+3706000066612345678', code: '50001018865' },
      { phone: '+37060000666', code: '5'.repeat(4096) },
    ];
    for (const [path, body] of [...smartId.map((b) => ['/smartid/login.json', b] as const), ...mobile.map((b) => ['/mobile/login.json', b] as const)]) {
      const before = mark();
      const answer = await post(path, body);
      if (answer.status !== 400 && answer.status !== 413) failure ??= show(`POST ${path} with ${JSON.stringify(body).slice(0, 60)}…`, answer);
      else if (reachedSince(before).length) failure ??= `${show(`POST ${path}`, answer)} (reached the service)`;
    }
    return failure;
  },
};

/** A body declared as 1 GiB is refused before it is read to the end (nobody can stream gigabytes into the host). */
export const bodyLimit: Check = {
  id: 'body-limit',
  rule: 'a body over the limit is refused (413) before it is read to the end',
  async run({ base, mark, reachedSince }) {
    const before = mark();
    const result = await new Promise<{ status: number; sent: number }>((resolve) => {
      const total = 1024 ** 3;
      const request = base.protocol === 'https:' ? httpsRequest : httpRequest;
      let sent = 0;
      let status = 0;
      let settled = false;
      const finish = () => {
        if (settled) return;
        settled = true;
        req.destroy();
        resolve({ status, sent });
      };
      const req = request({
        hostname: base.hostname,
        port: base.port,
        method: 'POST',
        path: `${base.pathname.replace(/\/+$/, '')}/smartid/login.json`,
        headers: { 'content-type': 'application/json', 'content-length': total },
      });
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
        res.on('end', finish);
      });
      req.on('error', finish);
      req.on('close', finish);
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      const pump = () => {
        while (!settled && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) {
            req.once('drain', pump);
            return;
          }
        }
      };
      setTimeout(finish, 30_000);
      pump();
    });
    const early = result.sent < 256 * 1024 * 1024 && reachedSince(before).length === 0;
    // a proxy that answers 413 and closes may reset the connection before the client reads the answer
    if (!early || (result.status !== 413 && result.status !== 0)) {
      return `POST /smartid/login.json declaring 1 GiB → ${result.status || 'no answer'} after ${Math.round(result.sent / 1024 / 1024)} MB were sent`;
    }
    return result.status === 0
      ? { failure: null, note: `the connection was closed after ${Math.round(result.sent / 1024 / 1024)} MB, before the answer could be read` }
      : null;
  },
};
