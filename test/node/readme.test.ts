import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

describe('README', () => {
  it('shows the proxy example that examples/readme/proxy-example.ts type-checks', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf("## The proxy: the host's trusted half"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
    const file = readFileSync('examples/readme/proxy-example.ts', 'utf8');
    const checked = /\/\/ --- README ---\n([\s\S]*?)\/\/ --- end ---/.exec(file)![1]!;
    assert.equal(block, checked);
  });

  it('shows the framework examples\' code as the examples have it', () => {
    const readme = readFileSync('README.md', 'utf8');
    const blocks = [...readme.matchAll(/```(?:ts|tsx|vue)\n([\s\S]*?)```/g)].map((m) => m[1]!);
    // the Next.js route handler, whole
    assert.ok(blocks.includes(readFileSync('examples/next-app/app/esign/[...path]/route.ts', 'utf8')), 'the route handler of examples/next-app');
    // the Vue and Angular snippets use the bindings the examples use
    assert.ok(readFileSync('examples/vue-vite/src/App.vue', 'utf8').includes('@esign-authenticated='));
    assert.ok(readFileSync('examples/angular-app/src/app/app.component.ts', 'utf8').includes('(esign-authenticated)='));
    assert.ok(blocks.some((b) => b.includes('(esign-authenticated)=') && b.includes('CUSTOM_ELEMENTS_SCHEMA')));
    assert.ok(blocks.some((b) => b.includes("isCustomElement: (tag) => tag.startsWith('esign-')")));
    assert.ok(readFileSync('examples/vue-vite/vite.config.ts', 'utf8').includes("isCustomElement: (tag) => tag.startsWith('esign-')"));
  });

  it('matches paths in its Python proxy with fullmatch, never with $', () => {
    const python = readFileSync('examples/proxy-python/proxy.py', 'utf8');
    assert.match(python, /re\.fullmatch\(/);
    assert.doesNotMatch(python, /re\.(match|search)\(r?f?"[^"]*\$"/);
  });
});
