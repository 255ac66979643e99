import { fileURLToPath } from 'node:url';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { createProxyHandler, type ProxyOptions } from '../src/proxy/index.js';
import { DEFAULT_ACCESS_TOKEN, startSandbox, type RunningSandbox } from 'esign-sandbox';

export interface DemoOptions {
  port?: number;
  /** A real service instead of the sandbox. */
  baseUrl?: string;
  accessToken?: string;
  /** How long sandbox persons take to answer, ms. */
  answerAfterMs?: number;
  /** The proxy's session-start limits (default: the proxy's defaults). */
  rateLimit?: ProxyOptions['rateLimit'];
}

export interface RunningDemo {
  url: string;
  sandbox?: RunningSandbox;
  close: () => Promise<void>;
}

/** The demo page with the proxy at /esign, in front of the sandbox or a real service. */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  let sandbox: RunningSandbox | undefined;
  let baseUrl = options.baseUrl;
  let accessToken = options.accessToken;
  if (!baseUrl || !accessToken) {
    sandbox = await startSandbox({
      accessToken: DEFAULT_ACCESS_TOKEN,
      answerAfterMs: options.answerAfterMs ?? 3000,
      widgetDir: fileURLToPath(new URL('../dist/cdn/', import.meta.url)),
    });
    baseUrl = sandbox.url;
    accessToken = DEFAULT_ACCESS_TOKEN;
  }
  // The demo lets every visitor use every document: a real host decides in authorize() who may
  // use which document (see the README), and keeps the default session-only operations otherwise.
  const proxy = createProxyHandler({
    baseUrl,
    accessToken,
    prefix: '/esign',
    operations: 'all',
    authorize: () => true,
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
  });
  const proxyPlugin: Plugin = {
    name: 'esign-proxy',
    configureServer(server) {
      server.middlewares.use(proxy);
    },
  };
  const server: ViteDevServer = await createServer({
    root: new URL('.', import.meta.url).pathname,
    configFile: false,
    logLevel: 'warn',
    plugins: [proxyPlugin],
    server: { port: options.port ?? 5173, strictPort: options.port !== 0, host: '127.0.0.1', fs: { allow: ['..'] } },
  });
  await server.listen();
  const address = server.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}/`,
    ...(sandbox ? { sandbox } : {}),
    close: async () => {
      await server.close();
      await sandbox?.close();
    },
  };
}
