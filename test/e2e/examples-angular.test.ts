import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createProxyHandler } from 'esign-elements/proxy';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { example, installExample, loginAndSign, withBrowser } from './example-flows.js';

// The Angular example as its developer builds it (ng build, AOT), served with the proxy in front of the sandbox.
withBrowser();

describe('examples/angular-app (Angular 20, CUSTOM_ELEMENTS_SCHEMA, zoneless)', () => {
  const ROOT = 'examples/angular-app';
  let sandbox: RunningSandbox;
  let host: HttpServer;
  let url: string;

  before(async () => {
    // as its developer builds it: ng build in its folder (AOT, strict templates), into a folder of the test
    const out = join(example.work, 'angular');
    const { NODE_OPTIONS: _, ...inherited } = process.env;
    await installExample(ROOT);
    const ng = fileURLToPath(new URL(`../../${ROOT}/node_modules/@angular/cli/bin/ng.js`, import.meta.url));
    const built = spawnSync(process.execPath, [ng, 'build', '--output-path', out], {
      cwd: ROOT,
      env: { ...inherited, NG_CLI_ANALYTICS: 'false' },
      encoding: 'utf8',
      maxBuffer: 32 * 1024 * 1024,
    });
    assert.equal(built.status, 0, `ng build: ${built.stdout}\n${built.stderr}`);
    // a host server: the built files and the proxy in front of the sandbox
    sandbox = await startSandbox({ accessToken: 'angular-example-token', answerAfterMs: 600 });
    const proxy = createProxyHandler({ baseUrl: sandbox.url, accessToken: 'angular-example-token', prefix: '/esign' });
    const files = join(out, 'browser');
    host = createHttpServer((req, res) => {
      if (req.url?.startsWith('/esign/')) return proxy(req, res);
      const path = new URL(req.url ?? '/', 'http://host').pathname;
      const file = join(files, path === '/' ? 'index.html' : path);
      if (!file.startsWith(files) || !existsSync(file)) return void res.writeHead(404).end();
      const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.html') ? 'text/html' : 'text/plain';
      res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(host.address() as { port: number }).port}/`;
  });
  after(async () => {
    host?.closeAllConnections();
    await new Promise((resolve) => host?.close(resolve));
    await sandbox?.close();
  });

  it('logs in with Smart-ID and signs a PDF with Mobile-ID, the template bindings receiving the events', async () => {
    await loginAndSign(url, 'angular');
  });
});
