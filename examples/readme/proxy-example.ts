// The README's proxy example, type-checked under `strict` with the host's own functions declared.
// test/node/readme.test.ts keeps the README's block and this file the same.
import type { CamelCased } from 'esign-elements';

declare function sessionIdFrom(cookie: string | null): string | null;
declare function logIn(sessionToken: string, visitor: string, person: CamelCased<Record<string, unknown>>): Promise<void>;
declare function storeSignedFile(sessionToken: string, visitor: string, result: CamelCased<Record<string, unknown>>): Promise<void>;

// --- README ---
import express from 'express';
import { createProxyHandler } from 'esign-elements/proxy';

const app = express();
app.use(
  createProxyHandler({
    baseUrl: process.env.ESIGN_BASE_URL!,        // required: the service
    accessToken: process.env.ESIGN_ACCESS_TOKEN!, // required: never reaches a browser or a log
    prefix: '/esign',                             // where the elements' `endpoint` points
    visitor: (request) => sessionIdFrom(request.headers.get('cookie')), // your session; default: a cookie of the proxy's own
    // may run more than once for one session: keyed by result.token, a second run changes nothing
    onResult: async (result) => {
      if (result.kind === 'login') await logIn(result.token, result.visitor, result.result);      // name, surname, code, certificate, ...
      if (result.kind === 'sign') await storeSignedFile(result.token, result.visitor, result.result); // file.name, file.content (base64)
    },
  }),
);
// --- end ---
