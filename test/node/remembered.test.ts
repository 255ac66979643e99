import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { remembered } from '../../src/proxy/remembered.js';
import { tokenName } from '../../src/proxy/sealed.js';
import { isMintedVisitor, newVisitorId, visitorDigest } from '../../src/proxy/visitor.js';
import { storeName } from '../../src/server/oidc/store-adapter.js';

// The keyed digests a poll needs every second (its token's name, its visitor cookie's MAC, the
// visitor's digest in events, the OpenID Provider's store names) are made once and remembered: the same answers as made anew, kept
// apart by secret, and never more of them than the limit, whatever is sent.

describe('remembered digests', () => {
  it('answer as the function does, once a value and secret, apart by secret, and within the limit', () => {
    const made: string[] = [];
    const digest = remembered(3, (secret, value) => {
      made.push(`${secret}/${value}`);
      return createHmac('sha256', secret).update(value).digest('hex');
    });
    const fresh = (secret: string, value: string) => createHmac('sha256', secret).update(value).digest('hex');
    assert.equal(digest('one', 'token-a'), fresh('one', 'token-a'));
    assert.equal(digest('one', 'token-a'), fresh('one', 'token-a'));
    assert.equal(digest('two', 'token-a'), fresh('two', 'token-a'), 'another secret, another answer');
    assert.deepEqual(made, ['one/token-a', 'two/token-a'], 'made once a secret and value');
    // past the limit (3 a secret) all is forgotten at once and made again when asked
    for (const value of ['b', 'c', 'd', 'e']) digest('one', value);
    assert.equal(digest('one', 'token-a'), fresh('one', 'token-a'));
    assert.equal(made.filter((entry) => entry === 'one/token-a').length, 2, 'forgotten once the limit was reached, made again');
  });

  it("the proxy's own: a token's name and a visitor's digest as made anew; a cookie's MAC checked under its own secret, a forged one refused after the true one", () => {
    const name = (secret: string, token: string) =>
      createHmac('sha256', createHmac('sha256', secret).update('esign-proxy store names').digest()).update(token).digest('base64url').slice(0, 32);
    for (let i = 0; i < 3; i++) assert.equal(tokenName('a-visitor-secret', 'a-session-token'), name('a-visitor-secret', 'a-session-token'));
    assert.notEqual(tokenName('another-secret', 'a-session-token'), tokenName('a-visitor-secret', 'a-session-token'));
    const id = newVisitorId('a-visitor-secret');
    assert.equal(visitorDigest(id, 'event-key'), createHmac('sha256', 'event-key').update(`visitor:${id}`).digest('hex'));
    assert.equal(isMintedVisitor(id, 'a-visitor-secret'), true);
    assert.equal(isMintedVisitor(id, 'a-visitor-secret'), true, 'remembered');
    assert.equal(isMintedVisitor(id, 'another-secret'), false, 'not under another secret, though remembered under its own');
    const forged = `${id.slice(0, 24)}${id.slice(24).split('').reverse().join('')}`;
    assert.notEqual(forged, id);
    assert.equal(isMintedVisitor(forged, 'a-visitor-secret'), false, 'the same random part with another MAC');
  });

  it("the OpenID Provider's store names: as made anew, again and again, apart by secret and by kind", () => {
    const name = (secret: string, kind: string, id: string) =>
      createHmac('sha256', createHmac('sha256', secret).update('esign-oidc store names').digest()).update(`${kind}:${id}`).digest('base64url').slice(0, 32);
    for (let i = 0; i < 3; i++)
      assert.equal(storeName('a-seal-secret', 'Interaction', 'an-interaction-uid'), name('a-seal-secret', 'Interaction', 'an-interaction-uid'));
    assert.notEqual(storeName('another-secret', 'Interaction', 'an-interaction-uid'), storeName('a-seal-secret', 'Interaction', 'an-interaction-uid'));
    assert.notEqual(storeName('a-seal-secret', 'Grant', 'an-interaction-uid'), storeName('a-seal-secret', 'Interaction', 'an-interaction-uid'));
  });
});
