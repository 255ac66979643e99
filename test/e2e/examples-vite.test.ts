import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { build, createServer, type ViteDevServer } from 'vite';
import { example, loginAndSign, withBrowser } from './example-flows.js';

// The Vite examples as their developers run them: each its own vite.config (the framework's
// plugin, the esign plugin with the sandbox), the package through its dependency, driven in Chromium
// through a login and a PDF signature.
const EXAMPLES = ['examples/react-vite', 'examples/vue-vite'];
withBrowser();

for (const ROOT of EXAMPLES)
  describe(ROOT, () => {
    let server: ViteDevServer;
    let url: string;
    before(async () => {
      server = await createServer({
        root: ROOT,
        configFile: `${ROOT}/vite.config.ts`,
        logLevel: 'silent',
        server: { port: 0, host: '127.0.0.1', strictPort: false },
      });
      await server.listen();
      url = `http://127.0.0.1:${(server.httpServer!.address() as { port: number }).port}/`;
    });
    after(() => server?.close());

    it('builds for production (its type check runs in npm run typecheck)', async () => {
      await build({ root: ROOT, configFile: `${ROOT}/vite.config.ts`, logLevel: 'silent', build: { outDir: join(example.work, ROOT), emptyOutDir: true } });
      const assets = readdirSync(join(example.work, ROOT, 'assets'));
      assert.ok(assets.some((file) => /^index-.*\.js$/.test(file)));
      // every language in two files of its own (what every element says, the document elements' words), loaded on demand
      assert.equal(assets.filter((file) => /^(lt|en|lv|et|ru)-(session|documents)-.*\.js$/.test(file)).length, 10);
    });

    it('logs in with Smart-ID and signs a PDF with Mobile-ID, the app receiving the events', async () => {
      await loginAndSign(url, ROOT.split('/')[1]!.replace('-', '_'));
    });
  });
