import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { startSandbox, type RunningSandbox } from 'esign-sandbox';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from '../../scripts/chromium.js';
import { lv } from '../../src/i18n/lv.js';
import { WORDS } from '../../src/server/oidc/page-words.js';
import { esignProxyHarness } from '../node/esign-proxy-harness.js';
import { freePort, oidcFiles, providerSettings } from '../node/oidc-harness.js';

// The provider's hosted login page as a person meets it (round six of the design review): the
// page's language from the person's own choice, the site's ui_locales, the browser's
// Accept-Language (as Chromium and Firefox each send it) or the client's default, with a switch that
// keeps the login; the site recognisable (its logo, address and name, its look on the whole page);
// error and ended pages in the person's words with a way back; axe-clean, no request answered 4xx.

const { esignProxy } = esignProxyHarness();
const ACCESS_TOKEN = 'hosted-page-token';
const NAME = 'Baltijas Banka';
let sandbox: RunningSandbox;
let site: Server;
let siteOrigin: string;
let issuer: string;
const browsers: Browser[] = [];

/** The site: its logo, its home page and its callback (which shows what it was given). */
const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="32" viewBox="0 0 120 32"><rect width="120" height="32" rx="6" fill="#0b6e3c"/></svg>';

before(async () => {
  sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 300 });
  const sitePort = await freePort();
  siteOrigin = `http://127.0.0.1:${sitePort}`;
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/logo.svg') return res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(LOGO);
    if (path === '/callback') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>callback</title><p id="called">back</p>');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>home</title><p id="home">the site</p>');
  });
  await new Promise<void>((resolve) => site.listen(sitePort, '127.0.0.1', resolve));
  const files = oidcFiles();
  const callback = `${siteOrigin}/callback`;
  writeFileSync(
    files.clients,
    JSON.stringify([
      {
        client_id: 'bank',
        client_secret: 'bank-secret-0123456789abcdef-0123',
        redirect_uris: [callback],
        client_name: NAME,
        logo_uri: `${siteOrigin}/logo.svg`,
        client_uri: `${siteOrigin}/`,
      },
      { client_id: 'portal-7f3a', client_secret: 'portal-secret-0123456789abcdef-01', redirect_uris: [callback] },
      { client_id: 'riga', client_secret: 'riga-secret-0123456789abcdef-0123', redirect_uris: [callback], client_name: 'Rīgas Nams', default_ui_locales: 'lv' },
    ]),
  );
  const look = join(files.dir, 'look.css');
  writeFileSync(look, ':root { --esign-color-accent: rgb(0, 110, 50); --esign-font-family: Georgia, serif; --esign-page-background: rgb(240, 248, 240); }\n');
  const port = await freePort();
  const proxy = await esignProxy({
    ...providerSettings(port, { url: sandbox.url, accessToken: ACCESS_TOKEN }, files, 'subject-secret-of-the-hosted-page'),
    ESIGN_OIDC_STYLESHEET: look,
  });
  issuer = `${proxy.url}/esign/oidc`;
});
after(async () => {
  for (const browser of browsers) await browser.close();
  site?.close();
  await sandbox?.close();
});

/** A browser as a person's, in the languages it is set to (each engine sends Accept-Language its own way). */
async function browserIn(engine: 'chromium' | 'firefox', languages: string): Promise<Browser> {
  const browser =
    engine === 'chromium'
      ? await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, `--accept-lang=${languages}`] })
      : await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, extraPrefsFirefox: { 'intl.accept_languages': languages } });
  browsers.push(browser);
  return browser;
}

function authorization(client: string, extra: Record<string, string> = {}): string {
  const url = new URL(`${issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: client,
    redirect_uri: `${siteOrigin}/callback`,
    response_type: 'code',
    scope: 'openid',
    state: 'state-of-the-hosted-page-test',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return url.toString();
}

interface Opened {
  page: Page;
  /** Every answer of 400 or more the page's loads got (none is wanted: not even a favicon). */
  failures: string[];
}

async function open(browser: Browser, url: string, width = 1280, acceptLanguage?: string): Promise<Opened> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  if (acceptLanguage) await page.setExtraHTTPHeaders({ 'accept-language': acceptLanguage });
  await page.setViewport({ width, height: 900 });
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.request().isNavigationRequest()) failures.push(`${response.status()} ${response.url()}`);
  });
  await page.goto(url);
  return { page, failures };
}

/** What the page says: its language, heading, the widget's language and country, the way back, the header. */
async function shown(page: Page) {
  await page.waitForSelector('esign-identify >>> esign-person-form >>> #country');
  return page.evaluate(() => {
    const identify = document.querySelector('esign-identify');
    const form = identify?.shadowRoot?.querySelector('esign-person-form');
    const country = form?.shadowRoot?.querySelector('select');
    return {
      lang: document.documentElement.lang,
      title: document.title,
      heading: document.querySelector('h1')?.textContent ?? '',
      widget: identify?.getAttribute('lang') ?? '',
      country: country?.value ?? '',
      back: document.querySelector('form.back button')?.textContent ?? '',
      current: document.querySelector('.languages [aria-current]')?.getAttribute('lang') ?? '',
    };
  });
}

const AXE = readFileSync('node_modules/axe-core/axe.min.js', 'utf8');

/** axe-core on the page as it is (evaluated by the test's driver, which the page's CSP does not govern). */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    // @ts-expect-error -- axe, as the script tag put it on the page
    const results = (await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] })) as {
      violations: { id: string; nodes: unknown[] }[];
    };
    return results.violations.map((violation) => `${violation.id} (${violation.nodes.length})`);
  });
}

const text = (page: Page) => page.evaluate(() => document.body.innerText);

describe("esign-proxy's hosted login page: the person's language, the site recognisable, a way back from every page", () => {
  for (const engine of ['chromium', 'firefox'] as const) {
    it(`a Latvian ${engine} and a site that sends no ui_locales: Latvian, Latvia preselected; the switch changes the language and keeps the login, which then ends at the site`, async () => {
      const browser = await browserIn(engine, 'lv-LV,lv');
      const { page, failures } = await open(browser, authorization('bank'));
      // drawn by the authorization request's answer; the interaction's own address is where the switch goes
      assert.equal(new URL(page.url()).pathname, '/esign/oidc/auth');
      const interaction = (await page.$eval('esign-identify', (e) => e.getAttribute('interaction'))) ?? '';
      assert.match(interaction, /^\/esign\/oidc\/interaction\/[A-Za-z0-9_-]+$/);
      assert.deepEqual(await shown(page), {
        lang: 'lv',
        title: `Pieteikšanās: ${NAME}`,
        heading: `Pieteikšanās: ${NAME}`,
        widget: 'lv',
        country: 'LV',
        back: `Atcelt un atgriezties: ${NAME}`,
        current: 'lv',
      });
      // the switch: each language named in its own words and voice
      const links = await page.$$eval('.languages a', (as) => as.map((a) => [a.textContent, a.getAttribute('lang'), a.getAttribute('hreflang')]));
      assert.deepEqual(links, [
        ['Lietuvių', 'lt', 'lt'],
        ['Latviešu', 'lv', 'lv'],
        ['Eesti', 'et', 'et'],
        ['Русский', 'ru', 'ru'],
        ['English', 'en', 'en'],
      ]);
      await Promise.all([page.waitForNavigation(), page.click('.languages a[lang="et"]')]);
      assert.equal(new URL(page.url()).pathname, interaction, 'the same login, at its own address');
      assert.equal(await page.$eval('esign-identify', (e) => e.getAttribute('interaction')), interaction);
      const estonian = await shown(page);
      assert.deepEqual(
        { lang: estonian.lang, heading: estonian.heading, widget: estonian.widget, back: estonian.back, current: estonian.current },
        { lang: 'et', heading: `Sisselogimine: ${NAME}`, widget: 'et', back: `Katkesta ja mine tagasi: ${NAME}`, current: 'et' },
      );
      // a reload keeps the person's choice over the browser's language
      await page.reload();
      assert.equal((await shown(page)).lang, 'et');
      // the country stays the browser's region (lv-LV), and the login goes on from the switched page to the site's callback
      assert.equal((await shown(page)).country, 'LV');
      const code = await page.waitForSelector('esign-identify >>> esign-person-form >>> #code');
      await code!.type('050405-10009');
      await page.click('esign-identify >>> [part="submit"]');
      await page.waitForSelector('#called', { timeout: 30_000 });
      const back = new URL(page.url());
      assert.equal(`${back.origin}${back.pathname}`, `${siteOrigin}/callback`);
      assert.ok(back.searchParams.get('code'), 'the site got a code');
      assert.equal(back.searchParams.get('state'), 'state-of-the-hosted-page-test');
      assert.deepEqual(failures, [], 'no load answered 4xx (no favicon 404)');
      await page.browserContext().close();
    });
  }

  it("the language from the client's registered default, and the country from ui_locales' region or login_hint", async () => {
    const browser = await browserIn('chromium', 'de-DE,de');
    // exactly a German browser's header (Chromium adds English of its own)
    const cases: [string, Record<string, string>, { lang: string; country: string }][] = [
      ['riga', {}, { lang: 'lv', country: 'LV' }],
      ['bank', {}, { lang: 'en', country: 'LT' }],
      ['bank', { ui_locales: 'ru-LV' }, { lang: 'ru', country: 'LV' }],
      ['bank', { ui_locales: 'en-EE ru' }, { lang: 'en', country: 'EE' }],
      ['bank', { ui_locales: 'lt', login_hint: 'country:EE' }, { lang: 'lt', country: 'EE' }],
      ['riga', { login_hint: 'country:LT' }, { lang: 'lv', country: 'LT' }],
    ];
    for (const [client, extra, expected] of cases) {
      const { page } = await open(browser, authorization(client, extra), 1280, 'de-DE,de;q=0.9');
      const { lang, country } = await shown(page);
      assert.deepEqual({ lang, country }, expected, `${client} ${JSON.stringify(extra)}`);
      await page.browserContext().close();
    }
  });

  it("the site recognisable: its logo (image of the site's origin, allowed by the page's CSP), address and name; its look on the page and the widget; the phone and the waiting state name it", async () => {
    const browser = await browserIn('chromium', 'lv-LV,lv');
    // lv-LT: Latvian words, Lithuania preselected (the slow person below is Lithuanian)
    const { page, failures } = await open(browser, authorization('bank', { ui_locales: 'lv-LT' }), 360);
    assert.deepEqual([(await shown(page)).lang, (await shown(page)).country], ['lv', 'LT']);
    await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img.logo')?.complete);
    const header = await page.evaluate(() => {
      const logo = document.querySelector<HTMLImageElement>('header img.logo');
      return {
        logo: { alt: logo?.alt, drawn: (logo?.naturalWidth ?? 0) > 0 },
        home: [document.querySelector('header a.home')?.textContent, document.querySelector('header a.home')?.getAttribute('href')],
        icon: document.querySelector('link[rel="icon"]')?.getAttribute('href'),
        font: getComputedStyle(document.querySelector('h1')!).fontFamily,
        back: getComputedStyle(document.querySelector('form.back button')!).color,
        background: getComputedStyle(document.body).backgroundColor,
        message: document.querySelector('esign-identify')?.getAttribute('message'),
        siteName: document.querySelector('esign-identify')?.getAttribute('site-name'),
        footer: document.querySelector('footer')?.textContent,
        scrolls: document.documentElement.scrollWidth > document.documentElement.clientWidth,
      };
    });
    assert.deepEqual(header, {
      logo: { alt: NAME, drawn: true },
      home: [new URL(siteOrigin).host, `${siteOrigin}/`],
      icon: `${siteOrigin}/logo.svg`,
      font: 'Georgia, serif',
      back: 'rgb(0, 110, 50)',
      background: 'rgb(240, 248, 240)',
      message: NAME,
      siteName: NAME,
      footer: WORDS.lv.methods,
      scrolls: false,
    });
    assert.deepEqual(await axeViolations(page), []);
    // waiting: the site beside the method, and the widget's button stops the request, not the login
    const code = await page.waitForSelector('esign-identify >>> esign-person-form >>> #code');
    await code!.type('39001010607');
    await page.click('esign-identify >>> [part="submit"]');
    // polled: a change inside a shadow root is no mutation of the document, which waitForSelector watches
    const status = "document.querySelector('esign-identify')?.shadowRoot?.querySelector('esign-status')?.shadowRoot";
    await page.waitForFunction(`${status}?.querySelector('[part="cancel"]')`, { timeout: 20_000, polling: 100 });
    const waiting = await page.evaluate(
      `[${status}.querySelector('[part="cancel"]').textContent.trim(), ${status}.querySelector('.detail [aria-hidden="true"]').textContent]`,
    );
    assert.equal((waiting as string[])[0], lv['identify.cancel-request']);
    assert.match((waiting as string[])[1] ?? '', new RegExp(`${NAME}$`));
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(failures, []);
    await page.browserContext().close();
  });

  it('a site without a name is never called by its client id; Lithuanian uses the label form after no preposition', async () => {
    const browser = await browserIn('chromium', 'lt-LT,lt');
    const unnamed = await open(browser, authorization('portal-7f3a'));
    const seen = await shown(unnamed.page);
    assert.deepEqual([seen.title, seen.heading, seen.back], ['Prisijungimas', 'Prisijungimas', 'Atšaukti ir grįžti į svetainę']);
    assert.doesNotMatch(await text(unnamed.page), /portal-7f3a/);
    assert.equal(await unnamed.page.$eval('esign-identify', (el) => el.hasAttribute('message') || el.hasAttribute('site-name')), false);
    const named = await open(browser, authorization('bank'));
    const lithuanian = await shown(named.page);
    assert.deepEqual([lithuanian.heading, lithuanian.back], [`Prisijungimas: ${NAME}`, `Atšaukti ir grįžti: ${NAME}`]);
    await unnamed.page.browserContext().close();
    await named.page.browserContext().close();
  });

  it("the error pages: in the person's language and words, the library's code only in the details, and the way back that exists", async () => {
    const browser = await browserIn('chromium', 'lv-LV,lv');
    // an unknown client: nothing is known of the site; the way back is the browser's previous page
    const unknown = await open(browser, `${siteOrigin}/`);
    await Promise.all([unknown.page.waitForNavigation(), unknown.page.goto(authorization('no-such-client'))]);
    const refused = await unknown.page.evaluate(() => ({
      lang: document.documentElement.lang,
      heading: document.querySelector('h1')?.textContent,
      said: document.querySelector('main > p')?.textContent,
      details: document.querySelector('details summary')?.textContent,
      code: document.querySelector('details code')?.textContent,
      back: document.querySelector<HTMLButtonElement>('button[data-back]')?.hidden,
      outside: [...document.querySelectorAll('main > :not(details)')].map((el) => el.textContent).join(' '),
    }));
    assert.equal(refused.lang, 'lv');
    assert.equal(refused.heading, WORDS.lv.failed);
    assert.equal(refused.said, WORDS.lv.refusal['site-not-set-up']);
    assert.equal(refused.details, WORDS.lv.technical);
    assert.match(refused.code ?? '', /^invalid_client/);
    assert.doesNotMatch(refused.outside, /invalid_/);
    assert.equal(refused.back, false, 'the previous page is offered');
    assert.deepEqual(await axeViolations(unknown.page), []);
    await Promise.all([unknown.page.waitForNavigation(), unknown.page.click('button[data-back]')]);
    assert.equal(await unknown.page.$eval('#home', (p) => p.textContent), 'the site');
    await unknown.page.browserContext().close();

    // a registered client, an unregistered redirect: the site is known, and its registered home the way back
    const badRedirect = await open(browser, authorization('bank', { redirect_uri: 'http://127.0.0.1:9/elsewhere' }));
    const wayBack = await badRedirect.page.evaluate(() => [
      document.querySelector('main a.action')?.textContent,
      document.querySelector('main a.action')?.getAttribute('href'),
    ]);
    assert.deepEqual(wayBack, [`Atgriezties: ${NAME}`, `${siteOrigin}/`]);
    assert.equal(await badRedirect.page.$eval('main > p', (p) => p.textContent), WORDS.lv.refusal['site-not-set-up']);
    // the site's look on the error page too
    assert.equal(await badRedirect.page.$eval('h1', (h) => getComputedStyle(h).fontFamily), 'Georgia, serif');
    await badRedirect.page.browserContext().close();

    // a login that has ended, after its page was open: in the language chosen on it, the way back to its site
    const ended = await open(browser, authorization('bank'));
    await shown(ended.page);
    await Promise.all([ended.page.waitForNavigation(), ended.page.click('.languages a[lang="ru"]')]);
    const answer = await ended.page.goto(`${issuer}/interaction/an-ended-login`);
    assert.equal(answer?.status(), 410);
    const endedShown = await ended.page.evaluate(() => ({
      lang: document.documentElement.lang,
      heading: document.querySelector('h1')?.textContent,
      back: [document.querySelector('main a.action')?.textContent, document.querySelector('main a.action')?.getAttribute('href')],
    }));
    assert.deepEqual(endedShown, { lang: 'ru', heading: WORDS.ru.expired, back: [`Вернуться: ${NAME}`, `${siteOrigin}/`] });
    assert.deepEqual(await axeViolations(ended.page), []);
    await ended.page.browserContext().close();

    // the same in a browser that never saw the login: the browser's language, and the previous page
    const stranger = await open(browser, `${issuer}/interaction/an-ended-login`);
    assert.equal(await stranger.page.$eval('html', (html) => html.lang), 'lv');
    assert.equal(await stranger.page.$eval('h1', (h) => h.textContent), WORDS.lv.expired);
    assert.equal(await stranger.page.$('main a.action'), null);
    await stranger.page.browserContext().close();

    // a page cookie this page never set (malformed escapes) is as none: the ended page, never a 500
    const forged = await fetch(`${issuer}/interaction/an-ended-login`, { headers: { cookie: 'esign-page=%E0%A4%A', 'accept-language': 'et' } });
    assert.equal(forged.status, 410);
    assert.match(await forged.text(), new RegExp(`<h1>${WORDS.et.expired}</h1>`));
  });
});
