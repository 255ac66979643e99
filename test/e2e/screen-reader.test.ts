import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CDPSession, Page } from 'puppeteer-core';
import { Sandbox } from 'esign-sandbox';
import { pagesInChromium } from './page-server.js';
import { en } from '../../src/i18n/en.js';
import { lt } from '../../src/i18n/lt.js';
import { lv } from '../../src/i18n/lv.js';
import { et } from '../../src/i18n/et.js';
import { ru } from '../../src/i18n/ru.js';
import type { Strings } from '../../src/i18n/index.js';
import { TestClock } from '../node/harness.js';

// What a screen reader says, step by step, as a person follows a whole login by keyboard: read from
// Chromium's own accessibility tree over the DevTools protocol (the tree assistive technology gets,
// shadow roots flattened), not from the DOM. A step says what gets the focus (role, name, value,
// description, state) as the focus moves to it, and what live regions newly hold. @guidepup/virtual-screen-reader, named for
// this in the issue, does not enter shadow roots in its latest release (0.33), so every element's
// content would be silent to it.

const TOKEN = 'screen-reader-test-token';
const clock = new TestClock();
const WORDS: Record<'en' | 'lt' | 'lv' | 'et' | 'ru', Strings> = { en, lt, lv, et, ru };

const page = (lang: string, body: string) => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Login</title>
<script type="module" src="/cdn/esign-elements.js"></script></head><body><main><h1>Bank</h1>${body}</main></body></html>`;

const sandbox = new Sandbox({ accessToken: TOKEN, now: clock.now, answerAfterMs: 5_000 });
const env = pagesInChromium(() => ({
  sandbox,
  token: TOKEN,
  content: (path) => {
    const login = /^\/(en|lt|lv|et|ru)\/(smartid|mobile)$/.exec(path);
    // Mobile-ID serves Lithuania and Estonia: a Latvian page's Mobile-ID login is for a Lithuanian number, the site saying so
    const country = login?.[1] === 'lv' && login[2] === 'mobile' ? ' country="LT"' : '';
    return login
      ? page(login[1]!, `<esign-identify endpoint="/esign" channels="smartid mobile" channel="${login[2]}"${country} poll-interval="200"></esign-identify>`)
      : undefined;
  },
}));

interface AXValue {
  value?: unknown;
}
interface AXNode {
  nodeId: string;
  backendDOMNodeId?: number;
  ignored: boolean;
  role?: AXValue;
  name?: AXValue;
  description?: AXValue;
  value?: AXValue;
  properties?: { name: string; value: AXValue }[];
  childIds?: string[];
  parentId?: string;
}

const text = (value: AXValue | undefined) => String(value?.value ?? '').trim();
const property = (node: AXNode, name: string) => node.properties?.find((p) => p.name === name)?.value.value;

/** Follows what a screen reader would say on one page: focus changes and new live-region content. */
class Listener {
  readonly said: string[] = [];
  #focused = '';
  #regions = new Map<string, string>();

  private constructor(private readonly cdp: CDPSession) {}

  static async on(tab: Page): Promise<Listener> {
    const cdp = await tab.createCDPSession();
    await cdp.send('Accessibility.enable');
    const listener = new Listener(cdp);
    await listener.take();
    return listener;
  }

  /** Reads the tree once: says the focused node if it changed, and each live region whose words changed. */
  async take(): Promise<void> {
    const { nodes } = (await this.cdp.send('Accessibility.getFullAXTree')) as unknown as { nodes: AXNode[] };
    const byId = new Map(nodes.map((node) => [node.nodeId, node]));
    const words = (node: AXNode): string => {
      if (node.ignored)
        return (node.childIds ?? [])
          .map((id) => words(byId.get(id)!))
          .filter(Boolean)
          .join(' ');
      if (text(node.role) === 'StaticText' || text(node.role) === 'InlineTextBox') return text(node.role) === 'StaticText' ? text(node.name) : '';
      return (node.childIds ?? [])
        .map((id) => byId.get(id))
        .filter((child): child is AXNode => Boolean(child))
        .map(words)
        .filter(Boolean)
        .join(' ');
    };
    const focused = nodes.find((node) => !node.ignored && property(node, 'focused') === true && text(node.role) !== 'RootWebArea');
    // said when the focus moves to it (a focused element whose name changes is not read again: what
    // changes is said by the live regions)
    const at = focused ? String(focused.backendDOMNodeId ?? focused.nodeId) : '';
    // (a brand's non-breaking hyphen, U+2011, is read as a hyphen)
    if (focused && at !== this.#focused) this.said.push(this.#phrase(focused).replace(/\u2011/g, '-'));
    this.#focused = at;
    // a live region's root: live itself, its parent not (role status and alert are live by themselves)
    for (const node of nodes) {
      const live = property(node, 'live');
      if (node.ignored || !live || live === 'off') continue;
      const parent = node.parentId ? byId.get(node.parentId) : undefined;
      if (parent && property(parent, 'live') === live) continue;
      const now = words(node)
        .replace(/\s+/g, ' ')
        .replace(/\u2011/g, '-')
        .trim();
      const known = this.#regions.has(node.nodeId);
      const before = this.#regions.get(node.nodeId) ?? '';
      // a region that comes into the page already holding its words is not said: several screen
      // reader and browser pairs skip it (only a change inside a region that was there is said)
      if (known && now && now !== before) this.said.push(now);
      this.#regions.set(node.nodeId, now);
    }
  }

  #phrase(node: AXNode): string {
    const states = [
      property(node, 'checked') === 'true' ? 'checked' : '',
      property(node, 'invalid') && property(node, 'invalid') !== 'false' ? 'invalid' : '',
      property(node, 'disabled') ? 'disabled' : '',
    ];
    return [text(node.role), text(node.name), text(node.value), text(node.description), ...states].filter(Boolean).join(', ');
  }

  /** Reads the tree every 50 ms until the check holds (what a person would hear meanwhile is kept). */
  async until(check: () => boolean, what: string, limit = 10_000): Promise<void> {
    const started = Date.now();
    for (;;) {
      await this.take();
      if (check()) return;
      if (Date.now() - started > limit) throw new Error(`never said: ${what}\nsaid:\n${this.said.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Lets a moment pass and reads again: nothing more may be said when nothing happens. */
  async settle(): Promise<void> {
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await this.take();
    }
  }

  heard(words: string): number {
    return this.said.filter((phrase) => phrase.includes(words)).length;
  }
}

async function press(tab: Page, listener: Listener, key: 'Tab' | 'Enter' | 'Space'): Promise<void> {
  await tab.keyboard.press(key);
  await listener.settle();
}

async function setLifecycle(tab: Page, state: 'frozen' | 'active'): Promise<void> {
  const cdp = await tab.createCDPSession();
  await cdp.send('Page.setWebLifecycleState', { state });
  await cdp.detach();
}

/** Tabs until the focus is on a node whose phrase includes the words; the phrases passed on the way are kept. */
async function tabTo(tab: Page, listener: Listener, words: string): Promise<string> {
  for (let i = 0; i < 8; i++) {
    await press(tab, listener, 'Tab');
    const last = listener.said.at(-1) ?? '';
    if (last.includes(words)) return last;
  }
  throw new Error(`the keyboard never reached "${words}"; said:\n${listener.said.join('\n')}`);
}

const digitsSpoken = (code: string) => code.split('').join(' ');

/** A tab of a person new to the site: nothing remembered from an earlier login (a method, a country). */
async function freshTab(): Promise<Page> {
  const tab = await env.browser.newPage();
  await tab.evaluateOnNewDocument(() => localStorage.removeItem('esign-elements:remembered'));
  return tab;
}

// every language end to end: the words a person hears are each language's own
for (const lang of ['en', 'lt', 'lv', 'et', 'ru'] as const) {
  const t = WORDS[lang];
  describe(`what a screen reader says (${lang})`, () => {
    it('a whole Smart-ID login by keyboard: the form, the control code once, waiting, coming back, the result', async () => {
      const tab = await freshTab();
      await tab.goto(`${env.url}/${lang}/smartid`, { waitUntil: 'load' });
      await tab.waitForFunction((word) => document.querySelector('esign-identify')?.shadowRoot?.textContent?.includes(word), {}, t['identify.submit']);
      const listener = await Listener.on(tab);
      assert.equal(listener.said.length, 0, 'nothing is said before the person moves');

      // the form, field by field; on a Latvian page no method that cannot serve Latvia (Mobile-ID) is offered: no choice to make
      if (lang !== 'lv') {
        const channel = await tabTo(tab, listener, t['channel.smartid']);
        assert.equal(channel, `radio, ${t['channel.smartid']}, checked`);
      }
      // the country of the page's language, preselected: a Latvian page, Latvia; an Estonian one, Estonia
      const home = lang === 'lv' ? 'LV' : lang === 'et' ? 'EE' : 'LT';
      const country = await tabTo(tab, listener, t['form.country']);
      assert.equal(country, `combobox, ${t['form.country']}, ${t[`country.${home}`]}`);
      if (lang === 'lv') assert.deepEqual(listener.said, [country], 'the first Tab reaches the country: no method to choose, Mobile-ID not offered');
      const code = await tabTo(tab, listener, t['form.code']);
      assert.equal(
        code,
        `textbox, ${t['form.code']}, ${t[home === 'LV' ? 'form.code.hint-lv' : 'form.code.hint']}`,
        'the field says its hint as its description',
      );
      await tab.keyboard.type(home === 'LV' ? '050405-10009' : '40504040001');
      const submit = await tabTo(tab, listener, t['identify.submit']);
      assert.equal(submit, `button, ${t['identify.submit']}`);
      const beforeStart = listener.said.length;
      await press(tab, listener, 'Enter');

      // waiting: the control code, digit by digit, with what to do; the waiting message
      const shown = await tab.waitForFunction(
        () => (document.querySelector('esign-identify')?.shadowRoot?.querySelector('esign-control-code') as (Element & { code: string }) | null)?.code,
      );
      const controlCode = String(await shown.jsonValue());
      assert.match(controlCode, /^\d{4}$/);
      // the focus lands on the code: its name says it digit by digit, its description what to do
      const codePhrase = `group, ${t['code.announce'].replace('{digits}', digitsSpoken(controlCode))}, ${t['code.smartid.login']} ${t['code.warning']}`;
      await listener.until(() => listener.heard(codePhrase) > 0, 'the control code with what to do, by focus');
      await listener.settle();
      const waiting = listener.said.slice(beforeStart);
      assert.equal(listener.heard(codePhrase), 1, `the control code is said once:\n${waiting.join('\n')}`);
      assert.equal(listener.heard(digitsSpoken(controlCode)), 1, 'its digits are read nowhere else');
      assert.ok(
        waiting.every((phrase) => !phrase.includes(controlCode)),
        'the code is never read as one number',
      );

      // the person goes to the app and comes back before confirming
      await setLifecycle(tab, 'frozen');
      await setLifecycle(tab, 'active');
      await listener.until(() => listener.heard(t['status.back.smartid']) > 0, 'where to finish');
      await listener.settle();
      assert.equal(listener.heard(t['status.back.smartid']), 1, 'where to finish is said once');

      // the person confirms: the result, and the focus on what comes next
      clock.advance(6_000);
      await listener.until(() => listener.heard(t['identify.success'].replace('{name}', 'OK TESTNUMBER')) > 0, 'the result');
      await listener.until(() => listener.heard(t['identify.done']) > 0, 'what comes next, by focus');
      await listener.settle();
      const all = listener.said;
      assert.deepEqual(
        all.filter((phrase, i) => all.indexOf(phrase) !== i),
        [],
        `nothing is said twice:\n${all.join('\n')}`,
      );
      assert.equal(listener.heard(t['identify.success'].replace('{name}', 'OK TESTNUMBER')), 1);
      if (process.env['ESIGN_SAY']) console.log(all.join('\n'));
      await tab.close();
    });

    it('a Mobile-ID error by keyboard: the failure with its reason, once, and the action that can help', async () => {
      const tab = await freshTab();
      await tab.goto(`${env.url}/${lang}/mobile`, { waitUntil: 'load' });
      await tab.waitForFunction((word) => document.querySelector('esign-identify')?.shadowRoot?.textContent?.includes(word), {}, t['identify.submit']);
      const listener = await Listener.on(tab);

      // the method by its name in the language: Estonian says "Mobiil-ID"
      const mobile = await tabTo(tab, listener, t['channel.mobile']);
      assert.equal(mobile, `radio, ${t['channel.mobile']}, checked`);
      const phone = await tabTo(tab, listener, t['form.phone']);
      assert.equal(phone, `textbox, ${t['form.phone']}, ${t['form.phone.hint']}`);
      await tab.keyboard.type('+37200000366');
      const code = await tabTo(tab, listener, t['form.code']);
      assert.equal(code, `textbox, ${t['form.code']}, ${t['form.code.hint']}`);
      await tab.keyboard.type('60001019928');
      await tabTo(tab, listener, t['identify.submit']);
      await press(tab, listener, 'Enter');
      await listener.until(() => listener.heard(t['code.mobile.login']) > 0, 'the control code');

      // the service does not know this person for Mobile-ID
      clock.advance(6_000);
      const other = `button, ${t['action.use-channel'].replace('{channel}', 'Smart-ID')}`;
      await listener.until(() => listener.heard(t['identify.failed']) > 0 && listener.said.includes(other), 'the failure and the other channel');
      await listener.settle();
      const failure = listener.said.find((phrase) => phrase.includes(t['identify.failed']))!;
      // why, naming the method and the country (the phone's +372: Estonia)
      const why = t['error.not-a-user'].replace('{channel}', t['channel.mobile']).replace('{country}', t['country.EE']);
      assert.ok(failure.includes(why), `the failure says why: ${failure}`);
      assert.equal(listener.heard(why), 1, 'the reason is said once');
      assert.equal(listener.said.filter((phrase) => phrase === other).length, 1, `the focus is on the action that can help:\n${listener.said.join('\n')}`);
      assert.equal(
        listener.said.findLast((phrase) => phrase.startsWith('button')),
        other,
        'the action is what has the focus at the end',
      );
      const all = listener.said;
      assert.deepEqual(
        all.filter((phrase, i) => all.indexOf(phrase) !== i),
        [],
        `nothing is said twice:\n${all.join('\n')}`,
      );

      // the action works from the keyboard: the Smart-ID form, the focus on the code
      await press(tab, listener, 'Enter');
      await listener.until(() => (listener.said.at(-1) ?? '').startsWith(`textbox, ${t['form.code']}`), 'the Smart-ID form with the focus on the code');
      await tab.close();
    });
  });
}
