import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSettings, SettingError, type ServerSettings } from '../../src/server/settings.js';
import { SETTINGS } from '../../src/server/setting-declarations.js';
import { helpText, settingsTable } from '../../src/server/settings-help.js';
import { scratchDir } from './processes.js';

// esign-proxy's settings read in-process, rule by rule: each refusal names its setting and says what
// it takes; each default is what --help says.

const BASE = { ESIGN_BASE_URL: 'http://127.0.0.1:9', ESIGN_ACCESS_TOKEN: 'an-access-token' };

const read = (env: Record<string, string>, args: string[] = []): ServerSettings => readSettings(args, { ...BASE, ...env });

function refusal(env: Record<string, string>, args: string[] = []): string {
  try {
    read(env, args);
  } catch (error) {
    assert.ok(error instanceof SettingError, String(error));
    return error.message;
  }
  assert.fail(`started with ${JSON.stringify(env)}`);
}

const dir = scratchDir('settings');
function clientsFile(clients: unknown): Record<string, string> {
  const path = join(dir, `clients-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(clients));
  return { ESIGN_OIDC_ISSUER: 'http://127.0.0.1:8787/esign/oidc', ESIGN_OIDC_CLIENTS: path };
}
const client = (over: Record<string, unknown> = {}) => ({
  client_id: 'bank',
  client_secret: 'bank-secret-0123456789abcdef-0123',
  redirect_uris: ['http://127.0.0.1:9/callback'],
  ...over,
});

describe('esign-proxy settings: the service', () => {
  it('require the service address and an access token of 8 characters or more', () => {
    assert.match(refusal({ ESIGN_BASE_URL: '' }), /^ESIGN_BASE_URL \(--base-url\) is required/);
    assert.match(refusal({ ESIGN_BASE_URL: 'ftp://x' }), /must be an http\(s\) address/);
    assert.match(refusal({ ESIGN_ACCESS_TOKEN: 'short' }), /ESIGN_ACCESS_TOKEN .* 8 characters or more/);
  });

  it('take a flag as the setting, over its variable, in either form; refuse a flag that is none, a short one, one without its value, a bare word', () => {
    assert.equal(read({}, ['--prefix=/sign']).prefix, '/sign');
    assert.equal(read({ ESIGN_PREFIX: '/env' }, ['--prefix', '/flag']).prefix, '/flag');
    assert.equal(read({ ESIGN_PREFIX: '/env' }).prefix, '/env');
    assert.match(refusal({}, ['--no-such-thing=1']), /^--no-such-thing is no setting of esign-proxy/);
    assert.match(refusal({}, ['-p', '80']), /^-p is no setting of esign-proxy/);
    assert.match(refusal({}, ['--port']), /^PORT \(--port\) needs a value: --port <port>/);
    assert.match(refusal({}, ['8080']), /^"8080" is no setting of esign-proxy: each is a flag with its value/);
    assert.equal(read({}, ['--help']).port, 8787);
  });

  it('default to port 8787 and prefix /esign; refuse a port that is none', () => {
    const settings = read({});
    assert.deepEqual([settings.port, settings.prefix], [8787, '/esign']);
    assert.match(refusal({ PORT: '70000' }), /PORT .* must be a port number/);
  });
});

describe("esign-proxy settings: the store's time limit", () => {
  it("is the rules' default unless set, 50 to 30000 whole milliseconds", async () => {
    const { DEFAULT_STORE_TIMEOUT } = await import('../../src/proxy/options.js');
    assert.equal(read({}).storeTimeoutMs, DEFAULT_STORE_TIMEOUT);
    assert.equal(read({ ESIGN_STORE_TIMEOUT_MS: '2500' }).storeTimeoutMs, 2500);
    for (const text of ['10', '30001', '1.5', 'long'])
      assert.match(refusal({ ESIGN_STORE_TIMEOUT_MS: text }), /ESIGN_STORE_TIMEOUT_MS .* from 50 to 30000/, text);
  });
});

describe('esign-proxy settings: the start limits', () => {
  it('read visitor,person,window[,address]', () => {
    assert.deepEqual(read({ ESIGN_RATE_LIMIT: '12,6,600' }).rateLimit, { visitor: 12, person: 6, windowMs: 600_000, address: undefined });
    assert.deepEqual(read({ ESIGN_RATE_LIMIT: '12,6,600,60' }).rateLimit, { visitor: 12, person: 6, windowMs: 600_000, address: 60 });
  });

  it('refuse what is not whole numbers of 1 or more, too few or too many', () => {
    for (const text of ['a,b', '12,6', '12,6,600,60,1', '0,6,600', '1.5,6,600'])
      assert.match(refusal({ ESIGN_RATE_LIMIT: text }), /ESIGN_RATE_LIMIT .* takes "visitor,person,window\[,address\]"/, text);
  });
});

describe('esign-proxy settings: the OpenID Provider', () => {
  it('refuse a client secret under 32 characters, and a public client with a secret', () => {
    assert.match(refusal(clientsFile([client({ client_secret: 'x' })])), /needs a client_secret of 32 characters or more/);
    assert.match(refusal(clientsFile([client({ token_endpoint_auth_method: 'none' })])), /is public .* and has a client_secret/);
  });

  it('refuse a client without redirect_uris, or with one that is not a list of strings', () => {
    assert.match(refusal(clientsFile([client({ redirect_uris: undefined })])), /needs redirect_uris/);
    assert.match(refusal(clientsFile([client({ redirect_uris: 'http://127.0.0.1:9/callback' })])), /needs redirect_uris/);
    assert.match(refusal(clientsFile([client({ redirect_uris: [] })])), /needs redirect_uris/);
  });

  it('refuse a logo_uri that is not a web URL, or plain http on another machine; take https, and http on this one', () => {
    assert.match(refusal(clientsFile([client({ logo_uri: 'javascript:alert(1)' })])), /logo_uri that is not an https:\/\/ URL/);
    assert.match(refusal(clientsFile([client({ logo_uri: 'http://bank.example/logo.png' })])), /logo_uri of plain http:\/\//);
    assert.equal(read(clientsFile([client({ logo_uri: 'https://bank.example/logo.svg' })])).oidc?.clients[0]?.['logo_uri'], 'https://bank.example/logo.svg');
    assert.ok(read(clientsFile([client({ logo_uri: 'http://127.0.0.1:9/logo.svg' })])).oidc);
  });

  it('refuse a default_ui_locales that is not language tags separated by spaces', () => {
    assert.match(refusal(clientsFile([client({ default_ui_locales: 'lv,en' })])), /default_ui_locales that is not language tags/);
    assert.match(refusal(clientsFile([client({ default_ui_locales: 7 })])), /default_ui_locales/);
    assert.ok(read(clientsFile([client({ default_ui_locales: 'lv-LV en' })])).oidc);
  });

  it("takes the clients example of docs/any-stack.md's login page as written (its secret filled in)", () => {
    const doc = readFileSync('docs/any-stack.md', 'utf8');
    const block = /\*\*The proxy's login page\.\*\*[\s\S]*?```json\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(block, 'the example is in the docs');
    const clients = JSON.parse(block.replace('"…"', '"bank-secret-0123456789abcdef-0123"')) as Record<string, unknown>[];
    const [bank] = read(clientsFile(clients)).oidc?.clients ?? [];
    assert.deepEqual(
      [bank?.['client_name'], bank?.['logo_uri'], bank?.['client_uri'], bank?.['default_ui_locales']],
      ['Baltijas Banka', 'https://bank.example/logo.svg', 'https://bank.example/', 'lv en'],
    );
  });

  it("a code's lifetime: 60 s unless set, 1 to 600 whole seconds", () => {
    assert.equal(read(clientsFile([client()])).oidc?.codeLifetimeS, 60);
    assert.equal(read({ ...clientsFile([client()]), ESIGN_OIDC_CODE_LIFETIME: '5' }).oidc?.codeLifetimeS, 5);
    for (const text of ['0', '601', '2.5', 'soon'])
      assert.match(refusal({ ...clientsFile([client()]), ESIGN_OIDC_CODE_LIFETIME: text }), /ESIGN_OIDC_CODE_LIFETIME .* from 1 to 600/, text);
  });

  it('refuse an issuer of plain http on another machine, or outside the prefix', () => {
    assert.match(refusal({ ...clientsFile([client()]), ESIGN_OIDC_ISSUER: 'http://site.example/esign/oidc' }), /must be https:\/\//);
    assert.match(refusal({ ...clientsFile([client()]), ESIGN_OIDC_ISSUER: 'http://127.0.0.1:8787/oidc' }), /must be under the prefix/);
  });
});

describe('esign-proxy settings: declared once', () => {
  const declared = Object.values(SETTINGS);

  it('each has its own variable and flag', () => {
    assert.equal(new Set(declared.map((s) => s.env)).size, declared.length);
    assert.equal(new Set(declared.map((s) => s.flag)).size, declared.length);
  });

  it('--help and the docs table are made from the declarations, every setting in each with what it takes', () => {
    const help = helpText();
    const table = settingsTable();
    for (const { env, flag, takes, what } of declared) {
      assert.ok(help.includes(`${env.padEnd(30)}${flag} <${takes}>\n      ${what}`), env);
      assert.ok(table.includes(`| \`${env}\` | \`${flag}\` |`), env);
    }
    assert.equal(table.split('\n').filter((line) => line.startsWith('| `')).length, declared.length);
  });

  it("a declaration's parser is what reads it: every setting refused by its own name when its parser refuses", () => {
    // a value every parser but the plain texts' refuses: each refusal names the setting it came from
    const refusing = declared.filter((s) => {
      try {
        s.parse('\u0000 no');
        return false;
      } catch {
        return true;
      }
    });
    assert.ok(refusing.length >= 20, `${refusing.length} parsers refuse a nonsense value`);
    for (const setting of refusing) {
      assert.match(refusal({ [setting.env]: '\u0000 no' }), new RegExp(`^${setting.env} \\(${setting.flag}\\)`), setting.env);
    }
  });

  it('the settings that go together are refused together, naming both', () => {
    assert.match(
      refusal({ ESIGN_REDIS_URL: 'redis://127.0.0.1:1', ESIGN_REDIS_CLUSTER: 'redis://127.0.0.1:2' }),
      /ESIGN_REDIS_URL .* and ESIGN_REDIS_CLUSTER .*: set one/,
    );
    assert.match(
      refusal({ ESIGN_REDIS_URL: 'redis://127.0.0.1:1,redis://127.0.0.1:2' }),
      /ESIGN_REDIS_URL .* is one address: several Redis Cluster nodes go in ESIGN_REDIS_CLUSTER/,
    );
    assert.match(refusal({ ESIGN_WEBHOOK_URL: 'http://127.0.0.1:9/hook' }), /^ESIGN_WEBHOOK_SECRET .* is required with ESIGN_WEBHOOK_URL/);
    const secret = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    assert.match(
      refusal({ ESIGN_SIGNER_URL: 'http://signer.example/who', ESIGN_WEBHOOK_SECRET: secret }),
      /^ESIGN_SIGNER_URL .* is plain http:\/\/ to another machine/,
    );
    assert.equal(
      read({ ESIGN_SIGNER_URL: 'http://signer.example/who', ESIGN_WEBHOOK_SECRET: secret, ESIGN_ALLOW_PLAIN_HTTP: '1' }).signerUrl,
      'http://signer.example/who',
    );
    assert.match(refusal({ ESIGN_OIDC_ISSUER: 'http://127.0.0.1:8787/esign/oidc' }), /^ESIGN_OIDC_CLIENTS .* is required with ESIGN_OIDC_ISSUER/);
  });

  it("the defaults that come from another setting: the Redis prefix from the token, the forwarded cookies from the visitor cookie, sub's key", () => {
    const plain = read({});
    assert.match(plain.redisPrefix, /^esign-proxy:[0-9a-f]{12}:$/);
    assert.notEqual(read({ ESIGN_ACCESS_TOKEN: 'another-access-token' }).redisPrefix, plain.redisPrefix);
    assert.deepEqual(plain.forwardCookies, []);
    assert.deepEqual(read({ ESIGN_VISITOR_COOKIE: 'sid' }).forwardCookies, ['sid']);
    assert.deepEqual(read({ ESIGN_VISITOR_COOKIE: 'sid', ESIGN_FORWARD_COOKIES: 'a, b' }).forwardCookies, ['a', 'b']);
    const files = clientsFile([client()]);
    assert.deepEqual([read(files).oidc?.subjectSecretFrom, read(files).oidc?.subjectSecret], ['access token', BASE.ESIGN_ACCESS_TOKEN]);
    assert.equal(read({ ...files, ESIGN_VISITOR_SECRET: 'a-visitor-secret' }).oidc?.subjectSecretFrom, 'visitor secret');
    assert.equal(read({ ...files, ESIGN_OIDC_SUBJECT_SECRET: 'a-subject-secret-of-its-own' }).oidc?.subjectSecretFrom, 'setting');
  });
});
