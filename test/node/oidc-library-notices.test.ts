import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryStore } from '../../src/proxy/index.js';
import { createOidcProvider } from '../../src/server/oidc/provider.js';
import { consoleLine } from '../../src/server/console-lines.js';
import { readSettings } from '../../src/server/settings.js';
import { scratchDir } from './processes.js';

// oidc-provider says its notices with console. The esign-proxy command makes its process's console
// its operator log (one JSON line a call, at the call's level); the provider itself never borrows
// console, so a line the host's code says while a provider is made stays the host's. In-process.

interface Line {
  level: string;
  message: string;
  code: string;
}

/** console.warn and console.info recorded for the length of `run`, then given back. */
async function recordingConsole<T>(run: () => Promise<T>): Promise<{ said: string[]; value: T }> {
  const { warn, info } = console;
  const said: string[] = [];
  console.warn = (...args: unknown[]) => void said.push(`warn ${args.join(' ')}`);
  console.info = (...args: unknown[]) => void said.push(`info ${args.join(' ')}`);
  try {
    return { said, value: await run() };
  } finally {
    console.warn = warn;
    console.info = info;
  }
}

const parsed = (line: string) => JSON.parse(line) as { level: string; msg: string; code?: string; time: string };

describe('the esign-proxy process console', () => {
  it("is one JSON line a call, at the call's level: the library's notices coded oidc-library, its runtime notice in esign-proxy's words, any other line console", () => {
    const notice = parsed(consoleLine('warn', ['oidc-provider WARNING: already parsed request body detected']));
    assert.deepEqual([notice.level, notice.code, notice.msg], ['warn', 'oidc-library', 'oidc-provider WARNING: already parsed request body detected']);
    assert.ok(!Number.isNaN(Date.parse(notice.time)));
    const aside = parsed(consoleLine('info', ['oidc-provider NOTICE: experimental features']));
    assert.deepEqual([aside.level, aside.code], ['info', 'oidc-library']);
    const runtime = parsed(consoleLine('warn', ['oidc-provider WARNING: Unsupported runtime. Use Node.js v22.x LTS, or a later LTS release.']));
    assert.equal(runtime.code, 'oidc-unsupported-runtime');
    assert.match(runtime.msg, /Node\.js 22 or later in production/);
    assert.ok(runtime.msg.includes(process.version));
    const other = parsed(consoleLine('error', ['a host line', 42]));
    assert.deepEqual([other.level, other.code, other.msg], ['error', 'console', 'a host line 42']);
    assert.equal(parsed(consoleLine('log', ['plain'])).level, 'info');
    assert.equal(parsed(consoleLine('debug', ['fine'])).level, 'info');
    assert.equal(consoleLine('warn', ['two\nlines']).split('\n').length, 1, 'one line, whatever was said');
  });
});

describe("the OpenID Provider, made in a host's process", () => {
  it("take none of the host's lines said while the provider is being made", async () => {
    const dir = scratchDir('library-notices');
    const clients = join(dir, 'clients.json');
    writeFileSync(
      clients,
      JSON.stringify([{ client_id: 'bank', client_secret: 'bank-secret-0123456789abcdef-0123', redirect_uris: ['http://127.0.0.1:9/callback'] }]),
    );
    const settings = readSettings([], {
      ESIGN_BASE_URL: 'http://127.0.0.1:9',
      ESIGN_ACCESS_TOKEN: 'an-access-token-of-the-test',
      ESIGN_OIDC_ISSUER: 'http://127.0.0.1:8787/esign/oidc',
      ESIGN_OIDC_CLIENTS: clients,
    });
    const lines: Line[] = [];
    const { said, value: provider } = await recordingConsole(async () => {
      const host = console.warn;
      const making = createOidcProvider({
        settings: settings.oidc!,
        prefix: '/esign',
        store: new MemoryStore(),
        sealSecret: 'a-seal-secret-of-the-test-0123456789',
        trustProxy: false,
        visitorOf: () => null,
        log: (level, message, fields) => void lines.push({ level, message, code: String(fields?.['code'] ?? '') }),
      });
      // the host's code, running while the provider is made: a microtask, a timer, a later tick
      void Promise.resolve().then(() => console.warn('host: a microtask'));
      setImmediate(() => console.warn('host: an immediate'));
      const made = await making;
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(console.warn, host, 'console untouched');
      return made;
    });
    assert.ok(provider.handle, 'a provider made');
    // the host's own lines in the host's console; the library's notice of this runtime (said as it
    // first loads, on Node.js 20) goes there too, untaken
    assert.deepEqual(
      said.filter((line) => line.includes('host:')),
      ['warn host: a microtask', 'warn host: an immediate'],
      "the host's lines are the host's",
    );
    assert.ok(
      said.every((line) => line.includes('host:') || line.startsWith('warn oidc-provider WARNING: Unsupported runtime')),
      said.join('\n'),
    );
    assert.ok(
      lines.every((line) => !line.message.startsWith('host:')),
      JSON.stringify(lines),
    );
    assert.deepEqual(
      lines.filter((line) => line.code === 'oidc-library'),
      [],
      'the library says nothing of its own with this configuration',
    );
  });
});
