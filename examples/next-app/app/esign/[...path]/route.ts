import { createFetchProxyHandler } from 'esign-elements/proxy';
import { SECURE, people } from '../../session';

// The proxy as a route handler: the secret stays on the server. The service and its token come
// from the environment (ESIGN_BASE_URL, ESIGN_ACCESS_TOKEN) when the first request arrives (the
// build has neither). onResult learns the results it can trust: a login becomes this app's
// session (see ../../session.ts), and signing is for that person only.
let handler: ((request: Request) => Promise<Response>) | undefined;

function proxy(request: Request): Promise<Response> {
  handler ??= createFetchProxyHandler({
    baseUrl: process.env['ESIGN_BASE_URL'] ?? '',
    accessToken: process.env['ESIGN_ACCESS_TOKEN'] ?? '',
    prefix: '/esign',
    secureCookie: SECURE,
    onResult: (result) => {
      if (result.kind !== 'login') return;
      const { code, name, surname, country } = result.result;
      people().set(result.visitor, { code, name, surname, country });
    },
    signer: ({ visitor }) => {
      const person = people().get(visitor);
      return person ? { country: person.country, code: person.code } : null;
    },
  });
  return handler(request);
}

export const dynamic = 'force-dynamic';
export { proxy as GET, proxy as POST, proxy as DELETE };
