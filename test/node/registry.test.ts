import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { scriptTagClosure } from '../../bench/sizes.js';
import { BUNDLE_CEILINGS, REGISTRY } from '../../src/registry.js';

const run = promisify(execFile);

// The files that list the elements are made from src/registry.ts: none may drift from it, and
// every registry line has its folder and define entry.
describe('the element registry', () => {
  it('agrees with the exports, the event maps, the React components, the prop types, package.json and the size ceilings', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/registry.ts', '--check']);
    assert.match(stdout, /the registry and its files agree/);
  });

  it("says each size ceiling's reason in one sentence (the CHANGELOG keeps what raised it)", () => {
    const reasons = [...REGISTRY.map((e) => [e.name, e.ceiling.why] as const), ...Object.entries(BUNDLE_CEILINGS).map(([file, c]) => [file, c.why] as const)];
    assert.equal(reasons.length, REGISTRY.length + 3);
    for (const [name, why] of reasons) {
      assert.ok(
        why.length > 0 && why.length <= 140 && !/[;.]\s/.test(why) && !/\braised\b/.test(why),
        `${name}: one sentence of at most 140 characters, no history: ${why}`,
      );
    }
  });

  it("`npm run size -- <element>` measures one element's file without a full build, as the full build measures it", async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/size.ts', 'status']);
    const measured = /\| esign-status alone, built by itself \| 1 \| [\d,]+ B \| ([\d,]+) B \|/.exec(stdout)?.[1];
    assert.ok(measured, stdout);
    // the full build (npm test builds first) wrote the same file
    assert.equal(Number(measured.replace(/,/g, '')), scriptTagClosure('esign-status.js').gzip);
    await assert.rejects(run(process.execPath, ['--import', 'tsx', 'scripts/size.ts', 'no-such-element']), /no element "no-such-element" in src\/registry\.ts/);
  });
});
