import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Connect, Plugin, PreviewServer, ViteDevServer } from 'vite';
import { createProxyHandler, type NodeProxyHandler, type ProxyOptions } from '../proxy/index.js';

export interface EsignViteOptions extends Omit<ProxyOptions, 'baseUrl' | 'accessToken' | 'prefix'> {
  /** Where the proxy is mounted. Default `/esign`. */
  prefix?: string;
  /** The service. Without it (and `accessToken`), `vite` (serve) runs the built-in sandbox. */
  baseUrl?: string;
  accessToken?: string;
  /**
   * The built-in sandbox in `vite` (serve) when no `baseUrl` is given (needs the `esign-sandbox`
   * package): `true` (default) or its options. Its signing pages (`/sign/…`, `/link/…`) are served
   * on the dev server's own address, so invitation and temporary links open there.
   */
  sandbox?: boolean | { answerAfterMs?: number; slowAnswerAfterMs?: number; dataDir?: string };
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
interface SandboxModule {
  DEFAULT_ACCESS_TOKEN: string;
  startSandbox(
    options: Record<string, unknown>,
  ): Promise<{ url: string; sandbox: { handle: (req: IncomingMessage, res: ServerResponse) => void }; close(): Promise<void> }>;
}

const SANDBOX_PAGES = /^\/(?:(?:sign|link)\/[A-Za-z0-9-]{1,64}(?:\/|$|\?)|assets\/(?:signing-page\.js|esign-[\w.-]+\.js)$)/;

/**
 * Mounts the esign proxy in Vite's dev server (`vite`) and preview server (`vite preview`). In
 * development without a `baseUrl`, the proxy talks to the built-in sandbox; `vite preview` and
 * anything beyond development need the real service's `baseUrl` and `accessToken`.
 *
 * ```ts
 * import { esign } from 'esign-elements/vite';
 * export default defineConfig({ plugins: [esign({ prefix: '/esign' })] });
 * ```
 */
export function esign(options: EsignViteOptions = {}): Plugin {
  const { sandbox: sandboxChoice = true, prefix = '/esign', baseUrl, accessToken, ...proxyOptions } = options;
  const closers: (() => Promise<void>)[] = [];

  /** Vite serves the pages itself: their scheme is its own, unless the host says otherwise (TLS in front). */
  function proxyFor(service: { baseUrl: string; accessToken: string }, https: boolean): NodeProxyHandler {
    return createProxyHandler({ publicScheme: https ? 'https' : 'http', ...proxyOptions, ...service, prefix });
  }

  function mount(middlewares: Connect.Server, handler: Promise<{ proxy: NodeProxyHandler; pages?: Middleware }>): void {
    // failures of the start (no sandbox package, say) are told on every request, not swallowed
    handler.catch(() => undefined);
    middlewares.use((req: IncomingMessage, res: ServerResponse, next: Connect.NextFunction) => {
      const url = req.url ?? '/';
      const forProxy = url === prefix || url.startsWith(`${prefix}/`);
      const forPages = SANDBOX_PAGES.test(url);
      if (!forProxy && !forPages) return next();
      handler.then(
        ({ proxy, pages }) => {
          if (forProxy) proxy(req, res, next);
          else if (pages) pages(req, res, next);
          else next();
        },
        (error: unknown) => next(error),
      );
    });
  }

  async function startSandbox(server: ViteDevServer): Promise<{ proxy: NodeProxyHandler; pages: Middleware }> {
    let module: SandboxModule;
    try {
      module = await import('esign-sandbox');
    } catch (cause) {
      throw new Error('esign-elements/vite: without baseUrl and accessToken the dev server runs the sandbox; install esign-sandbox as a dev dependency', {
        cause,
      });
    }
    const address = await listening(server);
    const host = address.address === '0.0.0.0' || address.address === '::' ? 'localhost' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const sandbox = await module.startSandbox({
      accessToken: module.DEFAULT_ACCESS_TOKEN,
      ...(typeof sandboxChoice === 'object' ? sandboxChoice : {}),
      publicUrl: `${server.config.server.https ? 'https' : 'http'}://${host}:${address.port}`,
      // the signing pages load this package's own script-tag files
      widgetDir: fileURLToPath(new URL('.', import.meta.resolve('esign-elements/cdn'))),
    });
    closers.push(() => sandbox.close());
    server.config.logger.info(`  esign: proxy at ${prefix} in front of the sandbox (signing pages on this address)`);
    return {
      proxy: proxyFor({ baseUrl: sandbox.url, accessToken: module.DEFAULT_ACCESS_TOKEN }, Boolean(server.config.server.https)),
      pages: (req, res) => sandbox.sandbox.handle(req, res),
    };
  }

  return {
    name: 'esign-elements',
    // the preview finds PDF.js's worker beside its engine (`new URL(…, import.meta.url)`), which
    // Vite's dependency pre-bundling would move away from it: the package is served as it is
    config: () => ({ optimizeDeps: { exclude: ['esign-elements'] } }),
    configureServer(server) {
      server.httpServer?.once('close', () => void Promise.all(closers.map((close) => close())));
      if (baseUrl && accessToken) {
        mount(server.middlewares, Promise.resolve({ proxy: proxyFor({ baseUrl, accessToken }, Boolean(server.config.server.https)) }));
        return;
      }
      if (sandboxChoice === false) throw new Error('esign-elements/vite: give baseUrl and accessToken, or allow the sandbox');
      mount(server.middlewares, startSandbox(server));
    },
    configurePreviewServer(server: PreviewServer) {
      if (!baseUrl || !accessToken) {
        server.config.logger.warn('  esign: no proxy in `vite preview` without baseUrl and accessToken');
        return;
      }
      mount(server.middlewares, Promise.resolve({ proxy: proxyFor({ baseUrl, accessToken }, Boolean(server.config.preview.https)) }));
    },
  };
}

/** The dev server's address once it listens (middleware mode has none: loopback port 0 is refused). */
function listening(server: ViteDevServer): Promise<AddressInfo> {
  const http = server.httpServer;
  if (!http) return Promise.reject(new Error("esign-elements/vite: the sandbox needs Vite's own HTTP server (not middleware mode)"));
  const now = http.address();
  if (now && typeof now === 'object') return Promise.resolve(now);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- listening on a TCP port: its address is an AddressInfo
  return new Promise((resolve) => http.once('listening', () => resolve(http.address() as AddressInfo)));
}
