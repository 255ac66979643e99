// The snippets of docs/proxy.md's setups, type-checked as a host's app is (npm run typecheck);
// test/node/readme.test.ts checks that the page shows them as they are here.
import express from 'express';
import { createProxyHandler } from 'esign-elements/proxy';

declare const baseUrl: string;
declare const accessToken: string;

// --- behind a reverse proxy ---
const app = express();
app.set('trust proxy', 1); // the balancer's X-Forwarded-For: req.ip is the browser's address
app.use(
  createProxyHandler<express.Request>({
    baseUrl,
    accessToken,
    prefix: '/esign',
    publicScheme: 'https', // TLS ends at nginx or the balancer
    clientAddress: (request) => request.raw.ip ?? null, // for the per-address limit
  }),
);
// --- end ---

// --- limits while developing ---
const dev = express();
dev.use(
  createProxyHandler({
    baseUrl,
    accessToken,
    prefix: '/esign',
    // the default limits are what a bank needs; testing with one test person needs more
    rateLimit: process.env['NODE_ENV'] === 'production' ? {} : { perPerson: { limit: 100, windowMs: 60_000 } },
  }),
);
// --- end ---

export { app, dev };
