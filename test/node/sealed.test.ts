import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { seal, unseal } from '../../src/proxy/sealed.js';

// Sealed values: each opens under its secret alone, and no two share a nonce. The nonces are this
// process's fixed field and a count (no randomness drawn per value): consecutive seals count up.

const nonceOf = (sealed: string) => Buffer.from(sealed, 'base64url').subarray(0, 12);

describe('sealed values', () => {
  it('open under their secret, and under no other', () => {
    const sealed = seal('a-visitor-secret', 'the cookies of a login');
    assert.equal(unseal('a-visitor-secret', sealed), 'the cookies of a login');
    assert.equal(unseal('another-secret', sealed), null);
    assert.equal(unseal('a-visitor-secret', `${sealed.slice(0, -2)}AA`), null, 'a changed value opens to nothing');
  });

  it('never share a nonce: one fixed field, a count that goes up by one a value', () => {
    const nonces = Array.from({ length: 20_000 }, (_, i) => nonceOf(seal(i % 2 ? 'one-secret' : 'two-secret', 'same text')));
    assert.equal(new Set(nonces.map((n) => n.toString('hex'))).size, nonces.length);
    const field = nonces[0]!.subarray(0, 8).toString('hex');
    assert.ok(
      nonces.every((n) => n.subarray(0, 8).toString('hex') === field),
      'one fixed field in this process',
    );
    for (let i = 1; i < nonces.length; i++) assert.equal(nonces[i]!.readUInt32BE(8), (nonces[i - 1]!.readUInt32BE(8) + 1) % 2 ** 32);
  });

  it('the same text sealed twice reads differently', () => {
    assert.notEqual(seal('a-visitor-secret', 'x'), seal('a-visitor-secret', 'x'));
  });
});
