import { createFetchProxyHandler } from 'esign-elements/proxy';

// The proxy as a route handler: the secret stays on the server. The service and its token come
// from the environment (ESIGN_BASE_URL, ESIGN_ACCESS_TOKEN) when the first request arrives (the
// build has neither); a real host adds onResult to learn the results it can trust.
let handler: ((request: Request) => Promise<Response>) | undefined;

function proxy(request: Request): Promise<Response> {
  handler ??= createFetchProxyHandler({
    baseUrl: process.env['ESIGN_BASE_URL'] ?? '',
    accessToken: process.env['ESIGN_ACCESS_TOKEN'] ?? '',
    prefix: '/esign',
  });
  return handler(request);
}

export const dynamic = 'force-dynamic';
export { proxy as GET, proxy as POST, proxy as DELETE };
