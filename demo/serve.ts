import { parseArgs } from 'node:util';
import { startDemo } from './server.js';

/**
 * `npm run demo [-- --port 8080]`; ESIGN_BASE_URL and ESIGN_ACCESS_TOKEN put the proxy in front of
 * a real service instead of the sandbox.
 */
const { values } = parseArgs({ options: { port: { type: 'string', short: 'p' } } });
const port = Number(values.port ?? process.env['PORT'] ?? 5173);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not ${values.port}`);
  process.exit(2);
}
const baseUrl = process.env['ESIGN_BASE_URL'];
const accessToken = process.env['ESIGN_ACCESS_TOKEN'];
const demo = await startDemo({
  port,
  ...(baseUrl && accessToken ? { baseUrl, accessToken } : {}),
  answerAfterMs: Number(process.env['ESIGN_ANSWER_AFTER'] ?? 3000),
});
console.log(baseUrl && accessToken ? `Proxy in front of ${baseUrl}` : "Proxy in front of the built-in sandbox; signing links open on the demo's address");
console.log(`Demo at ${demo.url}`);
