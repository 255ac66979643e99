import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import type { ProxyOptions } from '../src/proxy/index.js';
import { esign } from '../src/vite/index.js';

export interface DemoOptions {
  /** Port of the demo; 0 takes a free one. Default 5173. */
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
  close: () => Promise<void>;
}

/**
 * The demo runs the elements from their sources, where the preview's engine asks for PDF.js's
 * worker beside it (the build copies it there): it is served from pdfjs-dist at that address.
 */
function pdfWorkerBesideEngine(): Plugin {
  const worker = readFileSync(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.worker.min.mjs'));
  return {
    name: 'demo-pdf-worker',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        if (!req.url?.split('?')[0]!.endsWith('/src/elements/document-preview/esign-elements-pdf-worker.js')) return next();
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(worker);
      });
    },
  };
}

/**
 * The demo page with the proxy at /esign (the `esign-elements/vite` plugin), in front of the
 * sandbox, whose signing pages open on the demo's own address, or of a real service.
 */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const service = options.baseUrl && options.accessToken ? { baseUrl: options.baseUrl, accessToken: options.accessToken } : {};
  const server: ViteDevServer = await createServer({
    root: new URL('.', import.meta.url).pathname,
    configFile: false,
    logLevel: 'warn',
    // Lit's production build, as a host's page gets it: no dev-mode warning in the console
    resolve: { conditions: ['module', 'browser', 'production'] },
    // found before the first preview, not when it is shown (a late find reloads the page)
    optimizeDeps: { include: ['pdfjs-dist/legacy/build/pdf.mjs'] },
    plugins: [
      pdfWorkerBesideEngine(),
      esign({
        prefix: '/esign',
        ...service,
        sandbox: { answerAfterMs: options.answerAfterMs ?? 3000 },
        // The demo lets every visitor use every document: a real host decides in authorize() who
        // may use which document (see the README), and keeps the default session-only operations.
        operations: 'all',
        authorize: () => true,
        ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
      }),
    ],
    server: { port: options.port ?? 5173, strictPort: options.port !== 0, host: '127.0.0.1', fs: { allow: ['..'] } },
  });
  await server.listen();
  const address = server.httpServer?.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => server.close(),
  };
}
