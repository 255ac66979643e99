import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEFAULT_RATE_LIMITS } from '../../src/protocol/proxy-rules.js';
import { helpText } from '../../src/server/settings.js';

// A rule's number is said once, in the rules: --help is made from them, and every sentence of the
// docs that states a start limit states the rules' number (a changed limit with a stale sentence fails here).

const { perPerson, perVisitor, perAddress } = DEFAULT_RATE_LIMITS;
const minutes = perPerson.windowMs / 60_000;

describe("the start limits' numbers", () => {
  it('--help says the rules’ defaults', () => {
    const help = helpText();
    assert.ok(help.includes(`the default: ${perVisitor.limit} and ${perPerson.limit} in ${minutes} minutes, ${perAddress.limit} per address`), help);
    assert.ok(help.includes(`e.g. ${perVisitor.limit},${perPerson.limit},${perPerson.windowMs / 1000}`));
  });

  it('the docs state the rules’ numbers wherever they state a start limit', () => {
    const proxy = readFileSync('docs/proxy.md', 'utf8');
    const checklist = readFileSync('docs/proxy-checklist.md', 'utf8');
    const stated = [
      ...[...proxy.matchAll(/\*\*Per (person|visitor), (\d+) in (\d+) minutes/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]),
      ...[...checklist.matchAll(/\| starts per (person|visitor) \| (\d+) in (\d+) min \|/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]),
    ];
    assert.equal(stated.length, 4, 'each limit stated twice');
    for (const [who, limit, window] of stated)
      assert.deepEqual([limit, window], [who === 'person' ? perPerson.limit : perVisitor.limit, minutes], `the ${String(who)} limit as stated`);
  });
});
