import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { BodyDeadline, unwatchDeadline, watchDeadline } from '../../src/proxy/body-deadlines.js';

// The deadlines of bodies being read, one list and one timer for all of them (the proxy's 408
// over HTTP is in proxy-holes.test.ts). A sweep runs every 50 ms while something is watched.
const SWEPT = 150;

function deadlines(count: number, at: (i: number) => number): { list: BodyDeadline[]; expired: number[] } {
  const expired: number[] = [];
  const list = Array.from({ length: count }, (_, i) => new BodyDeadline(at(i), () => expired.push(i)));
  return { list, expired };
}

describe('body deadlines', () => {
  it('gives up each overdue body once, and only the ones still watched', async () => {
    const past = Date.now() - 1;
    const { list, expired } = deadlines(6, () => past);
    for (const deadline of list) watchDeadline(deadline);
    watchDeadline(list[0]!); // watched twice: still one entry
    unwatchDeadline(list[1]!); // its body arrived
    unwatchDeadline(list[1]!); // and again: nothing more happens
    unwatchDeadline(list[4]!);
    await sleep(SWEPT);
    assert.deepEqual(expired.sort(), [0, 2, 3, 5]);
    await sleep(SWEPT);
    assert.deepEqual(expired, [0, 2, 3, 5], 'an expired deadline is off the list');
  });

  it('keeps the bodies whose deadlines are ahead, and a deadline moved later', async () => {
    const now = Date.now();
    const { list, expired } = deadlines(4, (i) => (i % 2 ? now + 60_000 : now - 1));
    list[2]!.at = now + 60_000; // its body grew: more time
    for (const deadline of list) watchDeadline(deadline);
    await sleep(SWEPT);
    assert.deepEqual(expired, [0]);
    for (const deadline of list) unwatchDeadline(deadline);
    list[1]!.at = now - 1;
    await sleep(SWEPT);
    assert.deepEqual(expired, [0], 'nothing unwatched expires');
  });

  it('stays a true list through many bodies coming and going in any order', async () => {
    const past = Date.now() - 1;
    const { list, expired } = deadlines(2_000, (i) => (i % 3 === 0 ? past : Date.now() + 60_000));
    for (const deadline of list) watchDeadline(deadline);
    // the bodies that arrive, in an order other than the one they came in
    const arrived = list.filter((_, i) => i % 3 !== 0 || i % 2 === 0).reverse();
    for (const deadline of arrived.filter((_, i) => i % 2 === 0)) unwatchDeadline(deadline);
    for (const deadline of arrived.filter((_, i) => i % 2 === 1)) unwatchDeadline(deadline);
    await sleep(SWEPT);
    const overdueLeft = list.map((_, i) => i).filter((i) => i % 3 === 0 && i % 2 === 1);
    assert.deepEqual(expired.sort((a, b) => a - b), overdueLeft);
    // a deadline given up can be watched again (a reused object) and expires again
    watchDeadline(list[overdueLeft[0]!]!);
    await sleep(SWEPT);
    assert.equal(expired.length, overdueLeft.length + 1);
  });

  it("keeps its walk when giving a body up ends another body's reading or starts a new one", async () => {
    const past = Date.now() - 1;
    const expired: string[] = [];
    const later = new BodyDeadline(past, () => expired.push('later'));
    const second = new BodyDeadline(past, () => expired.push('second'));
    const first = new BodyDeadline(past, () => {
      expired.push('first');
      unwatchDeadline(second); // its body arrived meanwhile
      watchDeadline(later); // a new body, already overdue
    });
    watchDeadline(first);
    watchDeadline(second);
    await sleep(SWEPT);
    assert.deepEqual(expired, ['first', 'later']);
  });
});
