import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, translate, provideStrings, type Language, type Strings, type StringKey } from '../../src/i18n/index.js';
import { en } from '../../src/i18n/en.js';
import { lt } from '../../src/i18n/lt.js';
import { lv } from '../../src/i18n/lv.js';
import { et } from '../../src/i18n/et.js';
import { ru } from '../../src/i18n/ru.js';

// The classes of mistake a native reviewer found in the words, each caught for every string of
// every language: plural forms for every category a language has, a number with a noun always in
// a plural, Latvian's `zero` read as CLDR means it, one voice in Estonian, the signature levels.

const WORDS: Record<Language, Strings> = { en, lt, lv, et, ru };
for (const lang of LANGUAGES) for (const part of ['form', 'session', 'documents'] as const) provideStrings(lang, part, WORDS[lang]);

const PLURAL = /\{(\w+), plural,((?:\s*(?:=\d+|zero|one|two|few|many|other)\s*\{[^{}]*\})+)\s*\}/g;
const FORM = /(=\d+|zero|one|two|few|many|other)\s*\{([^{}]*)\}/g;

/** Each plural in a string: its argument and its forms by category. */
function plurals(text: string): { arg: string; forms: Map<string, string> }[] {
  return [...text.matchAll(PLURAL)].map(([, arg, body]) => ({
    arg: arg!,
    forms: new Map([...body!.matchAll(FORM)].map(([, category, form]) => [category!, form!])),
  }));
}

/** The arguments English counts with a plural: a number said with a noun. */
const COUNTED = new Set(Object.values(en).flatMap((text) => plurals(text).map((p) => p.arg)));

describe('the words in five languages', () => {
  it('English counts something in several strings (the test below has something to hold)', () => {
    assert.deepEqual([...COUNTED].sort(), ['count', 'length', 'minutes', 'seconds', 'total']);
  });

  for (const lang of LANGUAGES) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    const entries = Object.entries(WORDS[lang]) as [StringKey, string][];

    it(`${lang}: every plural has a form for each of the language's categories (${categories.join(', ')}) and none it lacks`, () => {
      let checked = 0;
      for (const [key, text] of entries) {
        for (const { forms } of plurals(text)) {
          checked++;
          for (const category of categories) assert.ok(forms.has(category), `${key}: no "${category}" form in ${text}`);
          for (const category of forms.keys())
            if (!category.startsWith('=')) assert.ok(categories.includes(category as Intl.LDMLPluralRule), `${key}: "${category}" is no ${lang} category`);
        }
      }
      assert.ok(checked >= 6, `${lang} has its plurals`);
    });

    it(`${lang}: a number said with a noun is always in a plural, never written bare`, () => {
      for (const [key, text] of entries) {
        const bare = text.replace(PLURAL, '');
        for (const arg of COUNTED) assert.ok(!bare.includes(`{${arg}}`), `${key}: {${arg}} outside a plural in ${text}`);
      }
    });

    it(`${lang}: every counted string reads whole for every number from 0 to 130`, () => {
      for (const [key, text] of entries) {
        if (!plurals(text).length) continue;
        const args = [...new Set([...text.matchAll(/\{(\w+)[,}]/g)].map(([, arg]) => arg!))];
        for (let n = 0; n <= 130; n++) {
          const said = translate(lang, key, Object.fromEntries(args.map((arg) => [arg, COUNTED.has(arg) || arg === 'valid' ? n : 'X'])));
          assert.doesNotMatch(said, /[{}#]/, `${key} for ${n}: ${said}`);
        }
      }
    });
  }

  it('lv: "zero" is CLDR\'s 0, 10-20, 30, 40…: the same form as "other" ("10 faili", never "10 failu")', () => {
    for (const [key, text] of Object.entries(lv)) {
      for (const { forms } of plurals(text)) assert.equal(forms.get('zero'), forms.get('other'), `${key}: ${text}`);
    }
    assert.equal(translate('lv', 'preview.files', { count: 10 }), 'Konteinerā ir 10 faili');
    assert.equal(translate('lv', 'preview.files', { count: 21 }), 'Konteinerā ir 21 fails');
  });

  it('ru: 64 characters are "64 шестнадцатеричных символа", 128 "128 шестнадцатеричных символов"', () => {
    assert.match(translate('ru', 'hash.invalid', { length: 64, algorithm: 'SHA-256' }), /64 шестнадцатеричных символа\./);
    assert.match(translate('ru', 'hash.invalid', { length: 128, algorithm: 'SHA-512' }), /128 шестнадцатеричных символов\./);
  });

  it('no language overstates a signature: the advanced level is never called secure or "enhanced"', () => {
    assert.match(lv['level.AdESig'], /^Uzlabots /);
    assert.match(lv['level.AdESig-QC'], /^Uzlabots /);
    assert.match(ru['level.AdESig'], /^Усовершенствованная /);
    assert.match(ru['level.AdESig-QC'], /^Усовершенствованная /);
    // "Drošs" and "Усиленная" name the qualified level in Latvian and Russian usage
    for (const words of [lv, ru])
      for (const [key, text] of Object.entries(words)) if (key.startsWith('level.AdESig')) assert.doesNotMatch(text, /Drošs|Усиленн/, key);
  });

  it('et: one voice: no "I" or "we" (impersonal forms), one word for a site, the buttons in the familiar imperative', () => {
    for (const [key, text] of Object.entries(et)) {
      assert.doesNotMatch(text, /\b(Alustan|Ootan|Laadin|Loon|Kontrollin|Valmistan|Proovime|proovime|Ootame)\b/, `${key}: ${text}`);
      assert.doesNotMatch(text, /\bsai(t|di|dil|dile)\b/i, `${key}: "veebileht", not "sait": ${text}`);
    }
    const buttons = Object.entries(et).filter(([key]) =>
      /^action\.|\.submit$|\.download$|^sign\.pick|^signers\.(invite|refresh)$|^preview\.(show|open)$/.test(key),
    );
    assert.ok(buttons.length >= 10);
    for (const [key, text] of buttons) assert.doesNotMatch(text.split(' ')[0]!, /(ge|ke)$/, `${key}: a button says "${text}"`);
    // the partitive after "kasuta": "Kasuta hoopis Mobiil-ID-d"
    assert.equal(translate('et', 'action.use-channel', { channel: 'Mobiil-ID' }).replace(/\u2011/g, '-'), 'Kasuta hoopis Mobiil-ID-d');
  });

  it("lv: no participle that only fits a man in the signers' words", () => {
    for (const [key, text] of Object.entries(lv)) {
      if (!key.startsWith('signers.') && !key.startsWith('sign-status.')) continue;
      assert.doesNotMatch(text, /\p{L}+(ījis|ājis|cies)(?!\p{L})|(uzaicināts|noņemts|atjaunots)(?!\p{L})/iu, `${key}: ${text}`);
    }
  });

  it("Mobile-ID's PIN is named: PIN1 to log in, PIN2 to sign, in every language", () => {
    for (const lang of LANGUAGES) {
      assert.match(WORDS[lang]['status.back.mobile.login'], /PIN1/, lang);
      assert.match(WORDS[lang]['status.back.mobile.sign'], /PIN2/, lang);
    }
  });

  it('no language names a product "the identity provider": people know Smart-ID and Mobile-ID', () => {
    const jargon = /identity provider|tapatybės teikėj|identitātes nodrošinātāj|identiteedipakkuja|поставщик\p{L}* идентификации/iu;
    for (const lang of LANGUAGES) for (const [key, text] of Object.entries(WORDS[lang])) assert.doesNotMatch(text, jargon, `${lang} ${key}: ${text}`);
    // a session names its own channel
    for (const lang of LANGUAGES) assert.match(WORDS[lang]['error.provider-error.channel'], /^(Сервис )?\{channel\}/, lang);
  });

  it('ru: no bare genitive of a unit in a label ("(минут)"): "(в минутах)"', () => {
    for (const [key, text] of Object.entries(ru)) assert.doesNotMatch(text, /\((минут|секунд|часов|дней|мегабайт)[,)]/u, `${key}: ${text}`);
  });

  it('lv and et: a status column says states, all in one form (participles, not past verbs)', () => {
    const states = ['signed', 'rejected', 'reviewed', 'confirmed', 'denied'] as const;
    for (const state of states) {
      assert.match(lv[`sign-status.${state}`], /ts$/u, `lv ${state}: ${lv[`sign-status.${state}`]}`);
      assert.match(et[`sign-status.${state}`], /nud$/u, `et ${state}: ${et[`sign-status.${state}`]}`);
    }
  });

  it('ru: no "(а)" gender form in a heading or a status column: impersonal forms, as Russian banking screens say them', () => {
    const headings = Object.entries(ru).filter(([key]) => key.startsWith('sign-status.') || key.endsWith('.success') || key === 'report.signed-by');
    assert.ok(headings.length >= 9, 'the headings and the status column are there to check');
    for (const [key, text] of headings) assert.doesNotMatch(text, /\(а\)/u, `${key}: ${text}`);
  });

  it('lv: a status in progress says what goes on ("Notiek …"), never a verb with no subject ("Sagatavo…" reads "(he) prepares")', () => {
    // "Gaida jūsu apstiprinājumu…" names what is awaited, a set phrase of Latvian screens
    const inProgress = Object.entries(lv).filter(([key, text]) => text.endsWith('…') && key !== 'status.waiting');
    assert.ok(inProgress.length >= 10, 'the statuses in progress are there to check');
    for (const [key, text] of inProgress) assert.match(text.split(/(?<=\.)\s+/).at(-1) ?? '', /^Notiek /u, `${key}: ${text}`);
  });

  it('no calque of "still trying", no launching of a program, no telegraphic dash, no coined word for the control code', () => {
    const calques: [Language, RegExp, string][] = [
      ['ru', /Попытки продолжаются/u, 'a calque of "still trying"'],
      ['lv', /Mēģinājumi turpinās/u, 'a calque of "still trying"'],
      ['ru', /^Запуск/u, 'launching a program, not connecting'],
      ['lv', /Kontrolkod/u, 'the Smart-ID app and Latvian banks say "kontroles kods"'],
      ['lt', / – žemiau|– žemiau\./u, 'a dash for a verb'],
      ['ru', / — ниже/u, 'a dash for a verb'],
    ];
    for (const [lang, calque, why] of calques) {
      for (const [key, text] of Object.entries(WORDS[lang])) assert.doesNotMatch(text, calque, `${lang} ${key}: ${text} (${why})`);
    }
  });

  it('the certificate of an issuer off the trusted list is said so, never the issuer called untrustworthy (lv, et, as lt and ru say it)', () => {
    assert.match(lv['sub.NO_CERTIFICATE_CHAIN_FOUND'], /uzticamo sarakstā/u);
    assert.match(et['sub.NO_CERTIFICATE_CHAIN_FOUND'], /usaldusnimekirjas/u);
    for (const text of [lv['sub.NO_CERTIFICATE_CHAIN_FOUND'], et['sub.NO_CERTIFICATE_CHAIN_FOUND']])
      assert.doesNotMatch(text, /no uzticama izdevēja|usaldusväärselt väljaandjalt/u);
  });

  it("the waiting detail is said as one sentence: the person's code or phone a phrase of it, no field label with its capital", () => {
    for (const lang of LANGUAGES) {
      for (const key of ['status.spoken-code', 'status.spoken-phone'] as const) {
        const text = WORDS[lang][key];
        assert.match(text, /^\p{Ll}/u, `${lang} ${key}: ${text}`);
        assert.match(text, /\{digits\}/u, `${lang} ${key}`);
      }
      assert.match(WORDS[lang]['status.spoken-phone'], /\{prefix\}/u, lang);
    }
  });
});
