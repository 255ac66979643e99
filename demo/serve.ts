import { createServer, type Plugin } from 'vite';
import { createProxyHandler } from '../src/proxy/index.js';
import { startSandbox, DEFAULT_ACCESS_TOKEN } from '../src/sandbox/index.js';

/**
 * `npm run demo`: the demo page with the proxy at /esign, in front of the built-in sandbox,
 * or in front of a real service when ESIGN_BASE_URL and ESIGN_ACCESS_TOKEN are set.
 */
const realBase = process.env['ESIGN_BASE_URL'];
const realToken = process.env['ESIGN_ACCESS_TOKEN'];
let baseUrl: string;
let accessToken: string;
if (realBase && realToken) {
  baseUrl = realBase;
  accessToken = realToken;
  console.log(`Proxy in front of ${realBase}`);
} else {
  const sandbox = await startSandbox({ accessToken: DEFAULT_ACCESS_TOKEN, answerAfterMs: Number(process.env['ESIGN_ANSWER_AFTER'] ?? 3000) });
  baseUrl = sandbox.url;
  accessToken = DEFAULT_ACCESS_TOKEN;
  console.log(`Sandbox at ${sandbox.url}`);
}

const proxyPlugin: Plugin = {
  name: 'esign-proxy',
  configureServer(server) {
    server.middlewares.use(createProxyHandler({ baseUrl, accessToken, prefix: '/esign' }));
  },
};

const server = await createServer({
  root: 'demo',
  configFile: false,
  plugins: [proxyPlugin],
  server: { port: Number(process.env['PORT'] ?? 5173), host: '127.0.0.1', fs: { allow: ['..'] } },
});
await server.listen();
server.printUrls();
