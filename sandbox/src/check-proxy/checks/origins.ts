import { madeUpPersonalCode } from '../../service/rules.js';
import { Jar, type Check } from '../prober.js';

/** A request from a page of another site is refused, whatever it asks. */
export const crossSite: Check = {
  id: 'cross-site',
  rule: 'requests from another site (Origin, Sec-Fetch-Site) get 403 and are not forwarded',
  async run({ post, mark, reachedSince, show }) {
    let failure: string | null = null;
    const foreign: Record<string, string>[] = [{ origin: 'https://evil.example' }, { 'sec-fetch-site': 'cross-site' }, { origin: 'null' }];
    for (const headers of foreign) {
      const before = mark();
      const answer = await post('/smartid/login.json', { code: '30303039914', country: 'LT' }, new Jar(), { headers });
      if (answer.status !== 403 || reachedSince(before).length) failure ??= show(`POST /smartid/login.json with ${JSON.stringify(headers)}`, answer);
    }
    return failure;
  },
};

/** The same host name over plain http is another origin (a page anything on the network can write). */
export const scheme: Check = {
  id: 'scheme',
  rule: "an http:// page of the proxy's own host name gets 403 (pages are served over https); its https:// page passes",
  async run({ post, base, mark, reachedSince, show }) {
    const host = `probe-host.test${base.port ? `:${base.port}` : ''}`;
    let before = mark();
    const plain = await post('/smartid/login.json', { code: madeUpPersonalCode(20), country: 'LT' }, new Jar(), {
      headers: { host, origin: `http://${host}` },
    });
    let failure: string | null = null;
    if (plain.status !== 403 || reachedSince(before).length) failure = show(`POST /smartid/login.json with Host ${host} and Origin http://${host}`, plain);
    before = mark();
    const secure = await post('/smartid/login.json', { code: madeUpPersonalCode(21), country: 'LT' }, new Jar(), {
      headers: { host, origin: `https://${host}` },
    });
    if (!reachedSince(before).length)
      failure ??= `${show(`POST /smartid/login.json with Host ${host} and Origin https://${host}`, secure)} (the page's own https origin was refused)`;
    return failure;
  },
};
