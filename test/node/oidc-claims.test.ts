import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { birthdateOf, claimsOf, subjectOf, type VerifiedPerson } from '../../src/server/oidc/claims.js';

// The ID token's claims of a person, rule by rule, in-process: the birth date each country's code
// holds (or not), sub as a keyed digest, the brokers' names of the claims.

const person = (over: Partial<VerifiedPerson> = {}): VerifiedPerson => ({
  country: 'LT',
  code: '40504040001',
  givenName: 'OK',
  familyName: 'TESTNUMBER',
  channel: 'smartid',
  authTime: 1_800_000_000,
  ...over,
});

describe('the birth date a personal code holds', () => {
  it('Lithuanian and Estonian codes: the first digit names the century and the sex', () => {
    assert.equal(birthdateOf('LT', '39001010607'), '1990-01-01');
    assert.equal(birthdateOf('LT', '40504040001'), '1905-04-04');
    assert.equal(birthdateOf('EE', '50001018865'), '2000-01-01');
    assert.equal(birthdateOf('EE', '60001019906'), '2000-01-01');
    assert.equal(birthdateOf('EE', '18001010000'), '1880-01-01');
    assert.equal(birthdateOf('EE', '71001010000'), '2110-01-01');
  });

  it('no date for a century digit that names none (0, 9)', () => {
    assert.equal(birthdateOf('LT', '09001010607'), undefined);
    assert.equal(birthdateOf('EE', '99001010607'), undefined);
  });

  it('no date for a day that does not exist (31 February, 29 February of a common year); 29 February of a leap year is one', () => {
    assert.equal(birthdateOf('LT', '39002310607'), undefined);
    assert.equal(birthdateOf('LT', '39102290607'), undefined);
    assert.equal(birthdateOf('LT', '39202290607'), '1992-02-29');
    assert.equal(birthdateOf('LT', '39013010607'), undefined, 'month 13');
  });

  it('old-format Latvian codes, with or without the hyphen: DDMMYY-C, C the century', () => {
    assert.equal(birthdateOf('LV', '050405-10009'), '1905-04-05');
    assert.equal(birthdateOf('LV', '05040510009'), '1905-04-05');
    assert.equal(birthdateOf('LV', '010100-20000'), '2000-01-01');
    assert.equal(birthdateOf('LV', '010100-00000'), '1800-01-01');
    assert.equal(birthdateOf('LV', '010100-30000'), undefined, 'no century 3');
  });

  it('a new-format Latvian code (32…) holds no date, nor a code of another length', () => {
    assert.equal(birthdateOf('LV', '320000-10003'), undefined);
    assert.equal(birthdateOf('LT', '3900101060'), undefined);
    assert.equal(birthdateOf('LT', '390010106071'), undefined);
  });
});

describe('sub', () => {
  it('is the same for a person at every login, and 43 characters of base64url', () => {
    const sub = subjectOf('LT', '40504040001', 'secret-of-the-site');
    assert.equal(subjectOf('LT', '40504040001', 'secret-of-the-site'), sub);
    assert.match(sub, /^[A-Za-z0-9_-]{43}$/);
  });

  it('differs for the same digits in another country, and under another secret', () => {
    const sub = subjectOf('LT', '40504040001', 'secret-of-the-site');
    assert.notEqual(subjectOf('EE', '40504040001', 'secret-of-the-site'), sub);
    assert.notEqual(subjectOf('LT', '40504040001', 'another-secret-of-a-site'), sub);
  });

  it('is one for a Latvian code with or without its hyphen, and holds none of its digits', () => {
    const sub = subjectOf('LV', '050405-10009', 'secret-of-the-site');
    assert.equal(subjectOf('LV', '05040510009', 'secret-of-the-site'), sub);
    assert.ok(!sub.includes('050405'));
  });
});

describe('the claims of a person', () => {
  it('names them as the Baltic brokers do: idp, nin, nin_type CIVIL, nin_issuing_country, the name in three', () => {
    assert.deepEqual(claimsOf(person(), 'the-sub'), {
      sub: 'the-sub',
      idp: 'smart-id',
      given_name: 'OK',
      family_name: 'TESTNUMBER',
      name: 'OK TESTNUMBER',
      birthdate: '1905-04-04',
      nin: '40504040001',
      nin_type: 'CIVIL',
      nin_issuing_country: 'LT',
    });
  });

  it('idp mobile-id for Mobile-ID', () => {
    assert.equal(claimsOf(person({ channel: 'mobile' }), 's')['idp'], 'mobile-id');
  });

  it('no birthdate where the code holds none, and a name without an empty half', () => {
    const claims = claimsOf(person({ country: 'LV', code: '320000-10003', givenName: '', familyName: 'TESTNUMBER' }), 's');
    assert.equal('birthdate' in claims, false);
    assert.equal(claims['name'], 'TESTNUMBER');
    assert.equal(claims['nin'], '320000-10003');
  });
});
