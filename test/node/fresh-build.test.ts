import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './processes.js';
import { BUILT_SERVER, staleBuild } from './fresh-build.js';

// esign-proxy's tests run the bin as a host runs it, built: a source changed since the build, or no
// build at all, is refused with a sentence that says what to run, never tested stale.

function tree(): string {
  const root = scratchDir('fresh-build');
  for (const dir of ['src/server/oidc', 'src/proxy', 'src/protocol', 'dist/server']) mkdirSync(join(root, dir), { recursive: true });
  for (const file of ['src/server/oidc/provider.ts', 'src/proxy/handler.ts', 'src/protocol/types.ts', BUILT_SERVER]) writeFileSync(join(root, file), '');
  const past = new Date(Date.now() - 60_000);
  for (const file of ['src/server/oidc/provider.ts', 'src/proxy/handler.ts', 'src/protocol/types.ts']) utimesSync(join(root, file), past, past);
  return root;
}

describe("esign-proxy's tests and its build", () => {
  it('take a build newer than every source of the server', () => {
    assert.equal(staleBuild(tree()), null);
  });

  it('refuse a build older than a source, naming the source and what to run', () => {
    const root = tree();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'src/server/oidc/provider.ts'), later, later);
    assert.equal(
      staleBuild(root),
      "esign-proxy's tests run the built bin (dist/server/cli.js), and src/server/oidc/provider.ts changed after it was built: run npm run build first (npm test does)",
    );
  });

  it('refuse no build at all', () => {
    const root = scratchDir('fresh-build-none');
    mkdirSync(join(root, 'src/server'), { recursive: true });
    assert.match(staleBuild(root) ?? '', /there is none: run npm run build first/);
  });
});
