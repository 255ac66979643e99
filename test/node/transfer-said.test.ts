import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { documentsSent, transferSaid } from '../../src/internal/documents/transfer-progress.js';
import { formatSize } from '../../src/internal/documents/file-picker.js';
import { en } from '../../src/i18n/en.js';
import { lv } from '../../src/i18n/lv.js';

// What a screen reader is told of a document on its way: the send once with its size, half way once
// more when it has taken 10 s or more; nothing while it is read, nothing for each step of the bar.

const words =
  (strings: Record<string, string>) =>
  (key: string, params: Record<string, string> = {}) =>
    strings[key]!.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? '');

describe('a document on its way, said', () => {
  it('once as the send begins, with its size; once more at half way of a long send; nothing while read', () => {
    const MB = 1024 * 1024;
    assert.equal(transferSaid(null, words(en), 'en'), '');
    assert.equal(transferSaid({ fraction: 0.4 }, words(en), 'en'), '', 'read, not yet sent');
    const start = documentsSent(1 * MB, 27 * MB, 20 * MB, 1_000, 1_500);
    assert.equal(transferSaid(start, words(en), 'en'), en['sign.sending-start'].replace('{size}', formatSize(20 * MB, 'en')));
    const halfQuick = documentsSent(14 * MB, 27 * MB, 20 * MB, 1_000, 9_000);
    assert.equal(halfQuick.halfway, false, 'half way within 10 s: nothing more to say');
    assert.equal(transferSaid(halfQuick, words(en), 'en'), transferSaid(start, words(en), 'en'), 'the same words: nothing new said');
    const halfSlow = documentsSent(14 * MB, 27 * MB, 20 * MB, 1_000, 11_000);
    assert.equal(halfSlow.halfway, true);
    assert.equal(transferSaid(halfSlow, words(lv), 'lv'), lv['sign.sending-half'].replace('{size}', formatSize(20 * MB, 'lv')));
    assert.equal(documentsSent(10 * MB, 27 * MB, 20 * MB, 1_000, 30_000).halfway, false, 'a long send not yet half way');
  });
});
