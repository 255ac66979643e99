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

  it('matches paths in its Python proxy with fullmatch, never with $', () => {
    const python = readFileSync('examples/proxy-python/proxy.py', 'utf8');
    assert.match(python, /re\.fullmatch\(/);
    assert.doesNotMatch(python, /re\.(match|search)\(r?f?"[^"]*\$"/);
  });
});
