import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, type Language, type Strings } from '../../src/i18n/index.js';
import { en } from '../../src/i18n/en.js';
import { lt } from '../../src/i18n/lt.js';
import { lv } from '../../src/i18n/lv.js';
import { et } from '../../src/i18n/et.js';
import { ru } from '../../src/i18n/ru.js';
import { PAGE_WORDS } from '../../sandbox/src/signing-pages/pages.js';

// One voice in each language: the same thing is said with the same words in every element and on
// the sandbox's signing pages. Each rule names a thing and holds every string that says it.

const WORDS: Record<Language, Strings> = { en, lt, lv, et, ru };

/** The verb a language asks with for a missing field ("Enter …"), taken from the login form. */
const askVerb = (words: Strings) => words['form.code.empty'].split(' ')[0]!;

describe('one glossary per language', () => {
  for (const lang of LANGUAGES) {
    const words = WORDS[lang];
    const all: [string, string][] = Object.entries(words);

    it(`${lang}: every missing field is asked for as the login asks ("${askVerb(words)} …"), never "fill this in"`, () => {
      const empty = all.filter(([key]) => /^form\.\w+\.empty$/.test(key) || key.endsWith('-empty'));
      // (the addresses a host sets have no words of a person's missing field: they are no fields)
      assert.ok(empty.length >= 5, 'the document forms have their own words for missing fields');
      for (const [key, text] of empty) assert.equal(text.split(' ')[0], askVerb(words), `${key}: ${text}`);
      assert.equal(
        all.some(([key]) => key === 'field.required'),
        false,
        'no generic "fill this in"',
      );
    });

    it(`${lang}: hash algorithms, channels and technical names are written one way`, () => {
      for (const [key, text] of all) {
        assert.doesNotMatch(text, /SHA\d/, `${key}: SHA-256, not SHA256`);
        // each channel by its one name in the language (Estonian says Mobiil-ID)
        for (const [pattern, name] of [
          [/smart[- ]?id/gi, words['channel.smartid']],
          [/mobii?le?[- ]?id/gi, words['channel.mobile']],
        ] as const) {
          for (const found of text.match(pattern) ?? []) assert.equal(found, name, `${key}: ${text}`);
        }
        // the plain-words report: technical levels and formats only in the technical part
        assert.doesNotMatch(text, /QESig|AdESig|BASELINE/, `${key}`);
      }
    });

    it(`${lang}: a signed file is downloaded with the same words wherever it is offered`, () => {
      assert.equal(
        all.some(([key]) => key === 'document.download-signed'),
        false,
        'one key, sign.download, in both places',
      );
      assert.doesNotMatch(words['sign.download'], /\{name\}/, 'the name stands beside the button, not in it');
    });

    it(`${lang}: choosing a file says the same in every picker`, () => {
      assert.equal(
        all.some(([key]) => key === 'report.pick-other'),
        false,
        'one key for "choose another file"',
      );
      assert.notEqual(words['sign.pick-other'], words['sign.pick']);
    });
  }

  for (const lang of LANGUAGES) {
    it(`${lang}: the signing pages sign with the widget's word for signing`, () => {
      const page = PAGE_WORDS[lang];
      // the file's name stands on its own after the heading's word, never bent into a grammatical case
      assert.match(page.title, /^[^{}]+: \{file\}$/);
      // the sentences ask to sign with the widget's verb ("Sign" on its button)
      const verb = WORDS[lang]['sign.submit'].toLowerCase().slice(0, 6);
      for (const sentence of [page.invited, page.link]) assert.ok(sentence.toLowerCase().includes(verb), `${sentence} signs with ${verb}…`);
    });
  }
});
