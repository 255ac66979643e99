import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { referencePage, SETTINGS_PAGE, withSettingsTable } from '../../scripts/docs-reference.js';

describe('README and docs', () => {
  it('docs/proxy.md shows the proxy example that examples/readme/proxy-example.ts type-checks', () => {
    const page = readFileSync('docs/proxy.md', 'utf8');
    const block = /```ts\n([\s\S]*?)```/.exec(page)![1]!;
    const file = readFileSync('examples/readme/proxy-example.ts', 'utf8');
    const checked = /\/\/ --- README ---\n([\s\S]*?)\/\/ --- end ---/.exec(file)![1]!;
    assert.equal(block, checked);
  });

  it("docs/frameworks.md shows the framework examples' code as the examples have it", () => {
    const page = readFileSync('docs/frameworks.md', 'utf8');
    const blocks = [...page.matchAll(/```(?:ts|tsx|vue)\n([\s\S]*?)```/g)].map((m) => m[1]!);
    // the Next.js route handler, whole
    assert.ok(blocks.includes(readFileSync('examples/next-app/app/esign/[...path]/route.ts', 'utf8')), 'the route handler of examples/next-app');
    // the Vue and Angular snippets use the bindings the examples use
    assert.ok(readFileSync('examples/vue-vite/src/App.vue', 'utf8').includes('@esign-authenticated='));
    assert.ok(readFileSync('examples/angular-app/src/app/app.component.ts', 'utf8').includes('(esign-authenticated)='));
    assert.ok(blocks.some((b) => b.includes('(esign-authenticated)=') && b.includes('CUSTOM_ELEMENTS_SCHEMA')));
    assert.ok(blocks.some((b) => b.includes("isCustomElement: (tag) => tag.startsWith('esign-')")));
    assert.ok(readFileSync('examples/vue-vite/vite.config.ts', 'utf8').includes("isCustomElement: (tag) => tag.startsWith('esign-')"));
  });

  it('docs/host-sessions.md shows the whole code of the Next.js and Express recipes, as CI runs them (next build and next start; the Express app over HTTP)', () => {
    const page = readFileSync('docs/host-sessions.md', 'utf8');
    const blocks = [...page.matchAll(/```(?:ts|tsx)\n([\s\S]*?)```/g)].map((m) => m[1]!);
    for (const file of ['app/session.ts', 'app/esign/[...path]/route.ts', 'app/page.tsx']) {
      assert.ok(blocks.includes(readFileSync(`examples/next-app/${file}`, 'utf8')), `${file}, whole`);
    }
    assert.ok(blocks.includes(readFileSync('examples/sessions/express-session.ts', 'utf8')), 'the Express recipe, whole');
  });

  it('docs/proxy.md shows its setups (behind a reverse proxy, limits while developing) as examples/readme/proxy-setups.ts type-checks them', () => {
    const page = readFileSync('docs/proxy.md', 'utf8');
    const blocks = [...page.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const file = readFileSync('examples/readme/proxy-setups.ts', 'utf8');
    const checked = [...file.matchAll(/\/\/ --- [^\n]+ ---\n([\s\S]*?)\/\/ --- end ---/g)].map((m) => m[1]!);
    assert.equal(checked.length, 2);
    for (const snippet of checked) assert.ok(blocks.includes(snippet), snippet.slice(0, 80));
  });
});

describe('the PHP recipe', () => {
  it("docs/host-sessions.md shows php/session-recipe.php's hooks as the file has them", () => {
    const blocks = [...readFileSync('docs/host-sessions.md', 'utf8').matchAll(/```php\n([\s\S]*?)```/g)].map((m) => m[1]!);
    assert.equal(blocks.length, 1);
    assert.ok(readFileSync('php/session-recipe.php', 'utf8').endsWith(blocks[0]!), blocks[0]!.slice(0, 80));
  });
});

describe("the newcomer's map", () => {
  it('the README is short, shows its two pictures, and every link of its map leads to a page that says who it is for', () => {
    const readme = readFileSync('README.md', 'utf8');
    assert.ok(Buffer.byteLength(readme) <= 16 * 1024, `README.md is ${Buffer.byteLength(readme)} bytes`);
    // the contributors' guide stays a guide: what grows beyond it goes where a reader of that topic looks
    assert.ok(statSync('docs/testing.md').size <= 12_000, `docs/testing.md is ${statSync('docs/testing.md').size} bytes`);
    for (const picture of ['docs/images/login.png', 'docs/images/signing.png']) {
      assert.ok(readme.includes(`src="${picture}"`), picture);
      assert.ok(statSync(picture).size > 5_000, `${picture} is a picture`);
    }
    // the two commands of a fresh machine
    assert.match(readme, /\n {4}npm ci && npm run demo\n/);
    assert.match(readme, /\n {4}apt-get update && apt-get install -y [^\n]+ && npm test\n/);
    const pages = [...readme.matchAll(/\]\((docs\/[\w-]+\.md)\)/g)].map((m) => m[1]!);
    assert.deepEqual(
      [...new Set(pages)].sort(),
      readdirSync('docs')
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`)
        .sort(),
      'every page is on the map',
    );
    for (const page of pages) {
      const text = readFileSync(page, 'utf8');
      assert.match(text, /^# .+\n\n\*For [^*]+\*\n/, `${page} opens with its title and who it is for`);
    }
  });

  it('links between the pages lead somewhere', () => {
    for (const name of readdirSync('docs').filter((file) => file.endsWith('.md'))) {
      const text = readFileSync(`docs/${name}`, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([\w./-]+\.md)(?:#[\w-]*)?\)/g)) {
        assert.ok(existsSync(`docs/${target}`), `docs/${name} links to ${target}`);
      }
    }
  });

  it("the settings table of docs/any-stack.md is what `npm run docs` makes from the settings' declarations", () => {
    const page = readFileSync(SETTINGS_PAGE, 'utf8');
    assert.match(page, /<!-- settings:start -->\n<!-- made from/);
    assert.equal(page, withSettingsTable(page), `run npm run docs and commit ${SETTINGS_PAGE}`);
  });

  it('docs/reference.md is what `npm run docs` writes from the built manifest', () => {
    const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as Parameters<typeof referencePage>[0];
    assert.equal(readFileSync('docs/reference.md', 'utf8'), referencePage(manifest), 'run npm run docs and commit docs/reference.md');
    // and it says what a reader looks for: every element, its events with their detail types
    for (const tag of ['esign-identify', 'esign-sign', 'esign-document', 'esign-status'])
      assert.ok(readFileSync('docs/reference.md', 'utf8').includes(`## \`<${tag}>\``), tag);
    assert.ok(readFileSync('docs/reference.md', 'utf8').includes('`CustomEvent<AuthenticatedDetail>`'));
  });
});
