import { startDemo } from './server.js';

/** `npm run demo`; ESIGN_BASE_URL and ESIGN_ACCESS_TOKEN put the proxy in front of a real service. */
const baseUrl = process.env['ESIGN_BASE_URL'];
const accessToken = process.env['ESIGN_ACCESS_TOKEN'];
const demo = await startDemo({
  port: Number(process.env['PORT'] ?? 5173),
  ...(baseUrl && accessToken ? { baseUrl, accessToken } : {}),
  answerAfterMs: Number(process.env['ESIGN_ANSWER_AFTER'] ?? 3000),
});
console.log(demo.sandbox ? `Sandbox at ${demo.sandbox.url}` : `Proxy in front of ${baseUrl}`);
console.log(`Demo at ${demo.url}`);
