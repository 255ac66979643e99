import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

// A test waits for what happened (a count, an event, a gate the test opens), or moves a clock, or
// sets a short lifetime: it never sleeps out 5 s or more. A sleep that long is a wait for time
// itself, which a loaded machine stretches and a fast one wastes.

const LIMIT_MS = 5_000;
const FOLDERS = ['test/node', 'test/e2e', 'test/node/fixtures'];
const SELF = 'test/node/no-long-sleeps.test.ts';

/** The milliseconds each literal sleep in a file asks for: setTimeout(resolve, N), sleep(N), delay(N) and PHP's usleep(µs). */
function sleepsIn(text: string): { ms: number; line: number }[] {
  const found: { ms: number; line: number }[] = [];
  const lines = text.split('\n');
  const number = (digits: string) => Number(digits.replace(/_/g, ''));
  lines.forEach((line, index) => {
    for (const match of line.matchAll(/(?:setTimeout\(\s*resolve\s*,|\bsleep\(|\bdelay\()\s*([\d_]+)\s*\)/g))
      found.push({ ms: number(match[1]!), line: index + 1 });
    for (const match of line.matchAll(/\busleep\(\s*([\d_]+)\s*\)/g)) found.push({ ms: number(match[1]!) / 1000, line: index + 1 });
  });
  return found;
}

describe('the tests', () => {
  it('read a sleep of any form (the checker itself)', () => {
    const sample = ['await new Promise((resolve) => setTimeout(resolve, 9_000));', 'await sleep(8_500);', 'usleep(12_000_000);', 'await sleep(100);'].join(
      '\n',
    );
    assert.deepEqual(sleepsIn(sample), [
      { ms: 9000, line: 1 },
      { ms: 8500, line: 2 },
      { ms: 12000, line: 3 },
      { ms: 100, line: 4 },
    ]);
  });

  it(`sleep less than ${LIMIT_MS / 1000} s at a time in test/node and test/e2e`, () => {
    const long: string[] = [];
    let files = 0;
    for (const folder of FOLDERS) {
      for (const name of readdirSync(folder)) {
        if (!/\.(ts|mjs|php)$/.test(name)) continue;
        files++;
        const path = `${folder}/${name}`;
        if (path === SELF) continue;
        for (const sleep of sleepsIn(readFileSync(path, 'utf8'))) if (sleep.ms >= LIMIT_MS) long.push(`${path}:${sleep.line} sleeps ${sleep.ms} ms`);
      }
    }
    assert.ok(files > 50, `${files} files read`);
    assert.deepEqual(long, []);
  });
});
