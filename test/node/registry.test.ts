import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

// The files that list the elements are made from src/registry.ts: none may drift from it, and
// every registry line has its folder, define entry and export.
describe('the element registry', () => {
  it('agrees with the exports, the React components, the prop types, package.json and the size ceilings', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/registry.ts', '--check']);
    assert.match(stdout, /the registry and its files agree/);
  });
});
