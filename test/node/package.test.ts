import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkMessage, checkPersonalCode, normalizePhone } from '../../src/index.js';
import { en } from '../../src/i18n/en.js';
import { lt } from '../../src/i18n/lt.js';
import { lv } from '../../src/i18n/lv.js';
import { et } from '../../src/i18n/et.js';
import { ru } from '../../src/i18n/ru.js';
import { strings as formWords } from '../../src/i18n/en-form.js';
import { strings as sessionWords } from '../../src/i18n/en-session.js';
import { strings as documentWords } from '../../src/i18n/en-documents.js';
import { ERROR_CODES } from '../../src/client/errors.js';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { backoffDelay } from '../../src/client/poll.js';

describe('package', () => {
  it('imports in Node without a window (SSR-safe), define included', async () => {
    assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
    const index = await import('../../src/index.js');
    assert.equal(typeof index.EsignElement, 'function');
    assert.equal(typeof index.EsignClient, 'function');
    await import('../../src/define.js');
    const { ELEMENTS } = await import('../../src/elements.js');
    // constructing each element must not touch window or document either
    for (const [tag, constructor] of Object.entries(ELEMENTS)) {
      const element = new (constructor as unknown as new () => { lang: string })();
      assert.equal(element.lang, '', tag);
    }
  });
  it('has every string in all five languages, with the same placeholders', () => {
    for (const strings of [lt, lv, et, ru]) {
      assert.deepEqual(Object.keys(strings).sort(), Object.keys(en).sort());
      for (const [key, text] of Object.entries(strings)) {
        assert.ok(text.trim().length > 0);
        // the values a string uses, plainly ({n}) or through plural forms ({n, plural, …})
        const PLURAL = /\{(\w+), plural,(?:[^{}]|\{[^{}]*\})*\}/g;
        const holes = (s: string) =>
          [...new Set([...[...s.matchAll(PLURAL)].map((m) => m[1]), ...[...s.replace(PLURAL, '').matchAll(/\{(\w+)\}/g)].map((m) => m[1])])].sort();
        assert.deepEqual(holes(text), holes(en[key as keyof typeof en]), key);
      }
    }
    for (const code of ERROR_CODES) assert.ok(`error.${code}` in en, `no words for ${code}`);
    // an accessible name starts with the visible words (axe: label-content-name-mismatch)
    for (const strings of [en, lt, lv, et, ru]) assert.ok(strings['link.copy-for'].startsWith(strings['link.copy']), strings['link.copy-for']);
  });

  it('keeps each key in one part of the strings, and the elements that load the form and session parts alone say none of the document words', () => {
    const formKeys = Object.keys(formWords);
    const sessionKeys = [...formKeys, ...Object.keys(sessionWords)];
    const documentKeys = Object.keys(documentWords);
    assert.deepEqual(
      Object.keys(sessionWords).filter((key) => formKeys.includes(key)),
      [],
    );
    assert.deepEqual(
      sessionKeys.filter((key) => documentKeys.includes(key)),
      [],
    );
    assert.equal(sessionKeys.length + documentKeys.length, Object.keys(en).length);
    // the first word of a key names its area; no area is split between the session elements' parts and the documents'
    const area = (key: string) => key.slice(0, key.indexOf('.'));
    const documentAreas = new Set(documentKeys.map(area));
    assert.deepEqual(
      sessionKeys.filter((key) => documentAreas.has(area(key))),
      [],
    );
    // every module a session-only element is made of, followed through its relative imports
    const modules = new Set<string>();
    const sessionOnly = ['identify', 'sign', 'hash-sign', 'person-form', 'control-code', 'status'];
    // another element a session element draws (esign-sign's preview) speaks with its own parts: not followed
    const otherElement = (file: string) => /\/src\/elements\/([a-z-]+)\//.exec(file)?.[1] ?? null;
    const visit = (file: string) => {
      const element = otherElement(file);
      if (modules.has(file) || file.includes('/src/client/') || file.includes('/src/i18n/') || (element !== null && !sessionOnly.includes(element))) return;
      modules.add(file);
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) visit(resolve(dirname(file), target!.replace(/\.js$/, '.ts')));
    };
    for (const name of sessionOnly) visit(resolve(`src/elements/${name}/define.ts`));
    assert.ok([...modules].some((file) => file.endsWith('/session-element.ts')));
    // a key written whole ('identify.submit') or begun in a template (`error.${code}`)
    const said = [...modules].flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/['`]([a-z-]+\.[a-z.-]*)(\$\{|['`])/g)]
        .map(([, text, end]) => ({ text: text!, whole: end !== '${' }))
        .filter(({ text, whole }) => Object.keys(en).some((key) => (whole ? key === text : key.startsWith(text)))),
    );
    assert.ok(said.some(({ text }) => text === 'identify.submit') && said.some(({ text }) => text === 'error.'), 'the scan finds the keys the elements say');
    const documentSaid = said.filter(({ text, whole }) => documentKeys.some((key) => (whole ? key === text : key.startsWith(text))));
    assert.deepEqual(documentSaid, [], 'document words said by an element that loads the session part alone');
  });
});

describe('input rules', () => {
  it('checks EE/LT check digits and birth dates, and LV forms without a checksum', () => {
    assert.equal(checkPersonalCode('60001019906', 'EE').valid, true);
    assert.deepEqual(checkPersonalCode('60001019907', 'EE'), { valid: false, problem: 'check-digit' });
    assert.deepEqual(checkPersonalCode('60013019906', 'LT'), { valid: false, problem: 'birth-date' });
    assert.deepEqual(checkPersonalCode('7000101990', 'LT'), { valid: false, problem: 'format' });
    assert.deepEqual(checkPersonalCode('', 'LT'), { valid: false, problem: 'empty' });
    assert.deepEqual(checkPersonalCode('05040510009', 'LV'), { valid: true, code: '050405-10009', birthDate: new Date(Date.UTC(1905, 3, 5)) });
    assert.equal(checkPersonalCode('320000-10003', 'LV').valid, true);
    assert.deepEqual(checkPersonalCode('310405-10009', 'LV'), { valid: false, problem: 'birth-date' });
    // the right shape with a century digit no date has: a date problem, not the format's
    assert.deepEqual(checkPersonalCode('050405-90009', 'LV'), { valid: false, problem: 'birth-date' });
    // a second weighting round: first-round sum mod 11 is 10
    assert.equal(checkPersonalCode('37605030299', 'EE').valid, true);
  });
  it('normalises phone numbers to +370 / +372', () => {
    assert.deepEqual(normalizePhone('8 600 00666'), { valid: true, phone: '+37060000666' });
    assert.deepEqual(normalizePhone('0600 00666'), { valid: true, phone: '+37060000666' });
    assert.deepEqual(normalizePhone('00370 600 00666'), { valid: true, phone: '+37060000666' });
    assert.deepEqual(normalizePhone('5123 4567', 'EE'), { valid: true, phone: '+37251234567' });
    assert.deepEqual(normalizePhone('+372 0000 0766'), { valid: true, phone: '+37200000766' });
    assert.deepEqual(normalizePhone('+371 2000 0000'), { valid: false, problem: 'country' });
    assert.deepEqual(normalizePhone('+370 600'), { valid: false, problem: 'format' });
    assert.deepEqual(normalizePhone('  '), { valid: false, problem: 'empty' });
  });
  it('picks UCS-2 for text outside GSM-7 and counts extension characters twice', () => {
    assert.deepEqual(checkMessage('Hello'), { format: 'GSM-7', length: 5, limit: 40 });
    assert.deepEqual(checkMessage('Ačiū'), { format: 'UCS-2', length: 4, limit: 20 });
    assert.equal(checkMessage('€'.repeat(21)).problem, 'too-long');
    assert.equal(checkMessage('Ačiū', 'GSM-7').problem, 'not-gsm7');
    assert.equal(checkMessage('ž'.repeat(21)).problem, 'too-long');
  });
  it('backs off exponentially with jitter, capped', () => {
    assert.equal(
      backoffDelay(0, 1000, 8000, () => 0.5),
      1000,
    );
    assert.equal(
      backoffDelay(3, 1000, 8000, () => 0.5),
      8000,
    );
    assert.equal(
      backoffDelay(10, 1000, 8000, () => 0),
      4000,
    );
    assert.equal(
      backoffDelay(10, 1000, 8000, () => 0.999),
      11992,
    );
  });
});

describe('request bodies', () => {
  it('splices large base64 strings into the JSON text unchanged, and escapes everything else', async () => {
    const { serializeJson } = await import('../../src/client/json.js');
    const big = 'QUJD'.repeat(40_000);
    const body = { type: 'pdf', pdf: { files: [{ name: 'a "quoted" ž.pdf', content: big }] }, note: 'x'.repeat(70_000) + '"' };
    assert.deepEqual(JSON.parse(serializeJson(body)), body);
    assert.equal(serializeJson({ a: 1 }), '{"a":1}');
  });
});

describe('custom elements manifest and editor data (written by the build)', () => {
  it('lists every element with its tag, typed esign-* events, parts, the theme properties and built module paths', async () => {
    const { existsSync, readFileSync } = await import('node:fs');
    const { ELEMENTS } = await import('../../src/elements.js');
    type Declaration = { tagName?: string; events?: { name: string; type?: { text: string } }[]; cssProperties?: unknown[]; cssParts?: unknown[] };
    const manifest = JSON.parse(readFileSync('custom-elements.json', 'utf8')) as { modules: { path: string; declarations?: Declaration[] }[] };
    for (const mod of manifest.modules) {
      assert.match(mod.path, /^dist\/.*\.js$/, 'a module path points into the package');
      // modules of types alone are built as declarations only
      assert.ok(existsSync(mod.path) || existsSync(mod.path.replace(/\.js$/, '.d.ts')), `${mod.path} is built`);
    }
    const declarations = manifest.modules.flatMap((m) => m.declarations ?? []).filter((d) => d.tagName);
    for (const tag of Object.keys(ELEMENTS)) {
      const declaration = declarations.find((d) => d.tagName === tag);
      assert.ok(declaration, `${tag} is in the manifest`);
      assert.ok((declaration.cssProperties ?? []).length >= 10, `${tag} lists the theme properties`);
      assert.ok((declaration.cssParts ?? []).length >= 1, `${tag} lists its parts`);
      for (const event of declaration.events ?? []) {
        assert.match(event.name, /^esign-[a-z-]+$/, `${tag} has no event named ${event.name}`);
        assert.match(event.type?.text ?? '', /^CustomEvent<.+>$/, `${tag}: ${event.name} has its detail type`);
      }
    }
    const identify = declarations.find((d) => d.tagName === 'esign-identify')!;
    assert.deepEqual(identify.events!.map((e) => e.name).sort(), ['esign-authenticated', 'esign-cancelled', 'esign-error', 'esign-started']);
    const upload = declarations.find((d) => d.tagName === 'esign-document-upload')!;
    assert.equal(upload.events!.find((e) => e.name === 'esign-document-uploaded')!.type!.text, 'CustomEvent<DocumentUploadedDetail>');

    const vscode = JSON.parse(readFileSync('dist/vscode.html-custom-data.json', 'utf8')) as { tags: { name: string; attributes: { name: string }[] }[] };
    const webTypes = JSON.parse(readFileSync('dist/web-types.json', 'utf8')) as {
      contributions: { html: { elements: { name: string; events: unknown[] }[] } };
    };
    for (const tag of Object.keys(ELEMENTS)) {
      assert.ok(
        vscode.tags.find((t) => t.name === tag)?.attributes.some((a) => a.name === 'endpoint'),
        `VS Code data has ${tag} and its endpoint attribute`,
      );
      assert.ok(
        webTypes.contributions.html.elements.some((e) => e.name === tag),
        `web-types has ${tag}`,
      );
    }
  });
});
