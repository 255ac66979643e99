import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { CHECKS } from '../../sandbox/src/check-proxy/check.js';

// The sandbox in rooms: a newcomer finds the service, the signature engines, the signing pages and
// check-proxy each in a folder of its own, and each rule of check-proxy reads alone.

describe("the sandbox's source, in rooms", () => {
  it('keeps at most 8 files at its top, the rest in folders by job', () => {
    const top = readdirSync('sandbox/src');
    const files = top.filter((name) => statSync(`sandbox/src/${name}`).isFile());
    assert.ok(files.length <= 8, `sandbox/src holds ${files.join(', ')}`);
    assert.deepEqual(top.filter((name) => !files.includes(name)).sort(), ['check-proxy', 'service', 'signatures', 'signing-pages']);
  });

  it('check-proxy runs a table of named checks, one rule each, each in a small module of its theme', () => {
    const ids = CHECKS.map((check) => check.id);
    assert.equal(new Set(ids).size, ids.length, 'one row per check');
    assert.equal(ids.at(-1), 'token-never', 'the token in no answer is looked for last, over every answer');
    assert.ok(ids.indexOf('rate-limit') > ids.indexOf('visitor-binding'), 'the rate limit after the checks that start sessions for the same people');
    for (const file of readdirSync('sandbox/src/check-proxy/checks')) {
      const lines = readFileSync(`sandbox/src/check-proxy/checks/${file}`, 'utf8').split('\n').length;
      assert.ok(lines <= 200, `checks/${file} has ${lines} lines`);
    }
  });
});
