import { Jar, type Check } from '../prober.js';

/** What a request id may be: short, and nothing a log line or a header could be broken by. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Every answer names its request (`x-request-id`), one id per request, so a person's failure can
 * be found in the host's log; a malformed id a browser sends is never taken (it could forge a line).
 */
export const requestId: Check = {
  id: 'request-id',
  rule: 'every answer carries its own x-request-id (1-128 of A-Z a-z 0-9 . _ : -); a malformed one sent is not taken',
  async run({ post, send, show }) {
    const refused = await post('/smartid/login.json', { code: '30303039914', country: 'LT' }, new Jar(), { headers: { origin: 'https://evil.example' } });
    const unknown = await send({ method: 'POST', path: '/api/admin.json', body: '{}', jar: new Jar() });
    const hostile = await send({
      method: 'POST',
      path: '/api/admin.json',
      body: '{}',
      jar: new Jar(),
      headers: { 'x-request-id': 'forged\tline [request x]' },
    });
    const ids = [refused, unknown, hostile].map((answer) => String(answer.headers['x-request-id'] ?? ''));
    for (const [i, answer] of [refused, unknown, hostile].entries()) {
      if (!REQUEST_ID.test(ids[i]!))
        return (
          show(['a cross-site POST /smartid/login.json', 'POST /api/admin.json', 'POST /api/admin.json with a malformed x-request-id'][i]!, answer) +
          ' (no well-formed x-request-id)'
        );
    }
    if (new Set(ids).size !== ids.length) return `the same x-request-id on different requests: ${ids.join(', ')}`;
    return null;
  },
};
