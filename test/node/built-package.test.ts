import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { samplePdf } from '../../src/sandbox/sample-pdf.js';
import { b64, send } from './harness.js';

// These run against dist/, which `npm test` builds first: what a host installs is what is tested.
describe('the built package', () => {
  it('runs the sandbox CLI: a container signature over real HTTP', async () => {
    const child = spawn(process.execPath, ['bin/esign-sandbox.js', '--port', '0', '--answer-after', '50', '--access-token', 'cli-token'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      while (!/listening on (\S+)/.test(output)) {
        const [chunk] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit').then(() => assert.fail('the CLI exited'))])) as [string];
        output += chunk;
      }
      const url = /listening on (\S+)/.exec(output)![1]!;
      const start = await send(`${url}/smartid/sign.json`, 'POST', { access_token: 'cli-token', type: 'asice', code: '40504040001', country: 'EE', asice: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] } });
      assert.equal(start.json.status, 'ok');
      let result = start;
      for (let i = 0; i < 50; i++) {
        result = await send(`${url}/smartid/sign/status/${start.json.token}.json`, 'POST', { access_token: 'cli-token' });
        if (result.json.status !== 'waiting') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(result.json.status, 'ok', JSON.stringify(result.json).slice(0, 200));
      assert.equal(result.json.file.name, 'a_signed.asice');
    } finally {
      child.kill();
    }
  });

  it('imports every entry point of dist/ in Node', async () => {
    const index = await import(new URL('../../dist/index.js', import.meta.url).href);
    assert.equal(typeof index.EsignIdentify, 'function');
    const proxy = await import(new URL('../../dist/proxy/index.js', import.meta.url).href);
    assert.equal(typeof proxy.createProxyHandler, 'function');
    const client = await import(new URL('../../dist/client/index.js', import.meta.url).href);
    assert.equal(typeof client.EsignClient, 'function');
    await import(new URL('../../dist/define.js', import.meta.url).href);
  });
});
