import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createViteServer, preview, type ViteDevServer } from 'vite';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { esign } from 'esign-elements/vite';
import { ACCESS_TOKEN, b64, send, startStack } from './harness.js';

// the plugin as a host's vite.config uses it: the built package, a real dev server on loopback
const root = mkdtempSync(join(tmpdir(), 'esign-vite-'));
writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title><p>host app</p>');
const servers: { close(): Promise<void> }[] = [];
after(async () => {
  for (const server of servers) await server.close();
  rmSync(root, { recursive: true, force: true });
});

async function devServer(plugin: ReturnType<typeof esign>): Promise<{ url: string; server: ViteDevServer }> {
  const server = await createViteServer({ root, configFile: false, logLevel: 'silent', plugins: [plugin], server: { port: 0, host: '127.0.0.1' } });
  await server.listen();
  servers.push(server);
  const address = server.httpServer!.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}`, server };
}

describe('esign-elements/vite', () => {
  it("in development without a service: the proxy in front of the sandbox, signing pages on the dev server's address", async () => {
    const { url } = await devServer(esign({ operations: 'all', authorize: () => true, rateLimit: false, sandbox: { answerAfterMs: 0 } }));
    // the host's own pages still come from Vite
    assert.match(await (await fetch(`${url}/`)).text(), /host app/);
    // a login through the proxy
    const login = await send(`${url}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'LT' });
    assert.equal(login.status, 200);
    assert.equal(login.json.status, 'ok');
    assert.match(login.json.token, /^\S{8,}$/);
    // an upload: the invitation opens on the dev server, and its page and the widget come from there
    const upload = await send(`${url}/esign/api/document/upload.json`, 'POST', {
      access: 'private',
      file: { filename: 'contract.pdf', content: b64(samplePdf('Vite')) },
      signers: [{ name: 'OK', surname: 'TESTNUMBER', email: 'ok@example.test' }],
    });
    assert.equal(upload.json.status, 'ok', JSON.stringify(upload.json));
    const invitation = new URL(upload.json.signers[0].invitationUrl as string);
    assert.equal(invitation.origin, url);
    const page = await fetch(invitation);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await page.text();
    assert.match(html, /<esign-sign/);
    const script = await fetch(`${url}/assets/esign-elements.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
    const file = await fetch(`${url}${invitation.pathname}/document`);
    assert.equal(file.status, 200);
    assert.equal(
      Buffer.from(await file.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      '%PDF-',
    );
    // what the plugin does not own is Vite's
    assert.match(await (await fetch(`${url}/sign/not-a-token!`)).text(), /host app/);
  });

  it('with a service given: no sandbox, the proxy in front of that service with its token', async () => {
    const stack = await startStack();
    try {
      const { url } = await devServer(esign({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN, prefix: '/api/esign' }));
      const login = await send(`${url}/api/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'LT' });
      assert.equal(login.json.status, 'ok');
      // default operations: sessions only
      const upload = await send(`${url}/api/esign/api/document/upload.json`, 'POST', { file: { filename: 'a.pdf', content: b64(samplePdf('x')) } });
      assert.equal(upload.status, 403);
      assert.equal(upload.json.proxy_error, 'operation-disabled');
      // no signing pages without the sandbox
      assert.doesNotMatch(await (await fetch(`${url}/assets/signing-page.js`)).text(), /esign-sign/);
      assert.doesNotMatch(await (await fetch(`${url}/sign/${'a'.repeat(36)}`)).text(), /<esign-sign/);
    } finally {
      await stack.close();
    }
  });

  it('vite preview mounts the proxy only with a service', async () => {
    const stack = await startStack();
    try {
      writeFileSync(join(root, 'dist-marker'), '');
      const withService = await preview({
        root,
        configFile: false,
        logLevel: 'silent',
        build: { outDir: root },
        plugins: [esign({ baseUrl: stack.sandboxUrl, accessToken: ACCESS_TOKEN })],
        preview: { port: 0, host: '127.0.0.1' },
      });
      servers.push(withService);
      const port = (withService.httpServer.address() as { port: number }).port;
      const login = await send(`http://127.0.0.1:${port}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'LT' });
      assert.equal(login.json.status, 'ok');
      const without = await preview({
        root,
        configFile: false,
        logLevel: 'silent',
        build: { outDir: root },
        plugins: [esign()],
        preview: { port: 0, host: '127.0.0.1' },
      });
      servers.push(without);
      const bare = (without.httpServer.address() as { port: number }).port;
      const refused = await fetch(`http://127.0.0.1:${bare}/esign/smartid/login.json`, {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      assert.notEqual(refused.status, 200);
      assert.doesNotMatch(await refused.text(), /"token"/);
    } finally {
      await stack.close();
    }
  });
});
