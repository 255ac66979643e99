import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { createProxyHandler, ResultRefused } from './src/proxy/index.ts';
import { startSandbox } from 'esign-sandbox';
import { countingReporter } from './scripts/counting-reporter.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from './scripts/chromium.ts';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { webkitAvailable, webkitLauncher } from './scripts/webkit.mjs';

const ACCESS_TOKEN = 'browser-test-secret';
/** Fault injection, per browser (both browsers run at once): a failing language, and a plan for the next status polls. */
const faultsOf = new Map();
const faultsFor = (ctx) => {
  const agent = ctx.get('user-agent');
  const browser = /firefox/i.test(agent) ? 'firefox' : /chrom/i.test(agent) ? 'chromium' : 'webkit';
  if (!faultsOf.has(browser)) faultsOf.set(browser, { language: '', plan: [], seen: 0, faulted: 0, holdStarts: 0, parserStarts: 0, holdFiles: 0, heldFiles: [] });
  return faultsOf.get(browser);
};
// persons answer after 300 ms so the suites need not wait; the slow identity stays slow
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 300, slowAnswerAfterMs: 60_000 });
// the elements' suites start many sessions for the same test persons: no limits on /esign; the
// limits are shown on /esign-limited (and have their own node suite). No pressure either: this
// process runs the browsers' pages and the sandbox's signing, and its event loop is theirs, not a
// node's to protect (the pressure has its own node suite)
const proxy = createProxyHandler({ baseUrl: sandbox.url, accessToken: ACCESS_TOKEN, prefix: '/esign', operations: 'all', authorize: () => true, rateLimit: false, exposeScreening: true, pressure: false });
const limited = createProxyHandler({
  baseUrl: sandbox.url,
  accessToken: ACCESS_TOKEN,
  prefix: '/esign-limited',
  rateLimit: { perVisitor: { limit: 1, windowMs: 250_000 }, perPerson: false },
  pressure: false,
});

// a site that turns every result away for good (a webhook's 4xx behind esign-proxy): /esign-refusing
const refusing = createProxyHandler({
  baseUrl: sandbox.url,
  accessToken: ACCESS_TOKEN,
  prefix: '/esign-refusing',
  rateLimit: false,
  pressure: false,
  log: () => undefined,
  onResult: () => {
    throw new ResultRefused(403);
  },
});

// signing only as the person signed in: the test page says who that is in a cookie, `code,country` (none: nobody)
const gated = createProxyHandler({
  baseUrl: sandbox.url,
  accessToken: ACCESS_TOKEN,
  prefix: '/esign-gated',
  rateLimit: false,
  pressure: false,
  signer: ({ headers }) => {
    const signedIn = /(?:^|;\s*)signed-in=([^;]+)/.exec(headers.get('cookie') ?? '')?.[1];
    if (!signedIn) return null;
    const [code, country] = decodeURIComponent(signedIn).split(',');
    return { code, country };
  },
});

/** Pages rendered by @lit-labs/ssr in a process of their own (its DOM shim stays out of this one). */
const ssrPages = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', 'test/ssr/render.ts'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }));

// WebKit (the engine of every browser on iPhones) beside Chromium and Firefox; ESIGN_WEBKIT=0 leaves it out
const onlyBrowsers = (name) => !process.env.ESIGN_BROWSERS || process.env.ESIGN_BROWSERS.split(',').includes(name);
const withWebkit = process.env.ESIGN_WEBKIT !== '0' && onlyBrowsers('webkit');
if (withWebkit && !webkitAvailable()) throw new Error('WebKit for the browser suites: apt-get install -y webkit2gtk-driver xvfb (or ESIGN_WEBKIT=0)');
const webkit = withWebkit ? [await webkitLauncher()] : [];

/**
 * A Firefox page whose viewport can be set: Puppeteer sets the screen orientation with the viewport
 * over WebDriver BiDi, a command Debian's Firefox ESR 140 does not know; the viewport itself is set.
 */
async function firefoxPage({ browser }) {
  const page = await browser.newPage();
  const setViewport = page.setViewport.bind(page);
  page.setViewport = async (viewport) => {
    try {
      await setViewport(viewport);
    } catch (error) {
      if (!/setScreenOrientationOverride/.test(String(error))) throw error;
    }
  };
  return page;
}

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  middleware: [
    // every file a test page loads is asked for again by the next page (the dev server would let the
    // browser keep it a year): a test file gets the words and modules it asks for, whatever ran before
    // it in the same browser, and a fault injected for one file is met by that file
    // (the runner's own middleware, outside this one, sets that year on the way out: the header is held here)
    (ctx, next) => {
      if (ctx.path.startsWith('/src/') || ctx.path.startsWith('/test/')) {
        const setHeader = ctx.res.setHeader.bind(ctx.res);
        ctx.res.setHeader = (name, value) => setHeader(name, String(name).toLowerCase() === 'cache-control' ? 'no-cache' : value);
      }
      return next();
    },
    // the preview's worker, where the built package has it beside the engine (the sources have none)
    (ctx, next) => {
      if (ctx.path !== '/src/elements/document-preview/esign-elements-pdf-worker.js') return next();
      ctx.type = 'text/javascript';
      ctx.body = readFileSync('node_modules/pdfjs-dist/legacy/build/pdf.worker.min.mjs');
      return undefined;
    },
    (ctx, next) => {
      if (!ctx.path.startsWith('/__ssr/')) return next();
      const page = ssrPages[ctx.path.slice('/__ssr/'.length)];
      if (page === undefined) return next();
      ctx.type = 'text/html';
      ctx.body = page;
      return undefined;
    },
    // fault injection for the tests: /__faults/lang?fail=lv makes the Latvian strings fail to load until ?fail= clears it
    (ctx, next) => {
      const faults = faultsFor(ctx);
      if (ctx.path === '/__faults/lang') {
        faults.language = ctx.query.fail || '';
        ctx.body = { failing: faults.language };
        return undefined;
      }
      // /__faults/start?hold=1: the next session start is never answered (held until its connection closes)
      if (ctx.path === '/__faults/start') {
        faults.holdStarts = Number(ctx.query.hold ?? 0);
        ctx.body = { holding: faults.holdStarts };
        return undefined;
      }
      // /__faults/held-file?hold=1: the next file signing start or upload waits, unread, until /__faults/held-file?release=1
      if (ctx.path === '/__faults/held-file') {
        if (ctx.query.release) {
          for (const release of faults.heldFiles.splice(0)) release();
        } else faults.holdFiles = Number(ctx.query.hold ?? 0);
        ctx.body = { holding: faults.holdFiles, held: faults.heldFiles.length };
        return undefined;
      }
      if (/^\/esign\/(en\/)?((mobile|smartid)\/sign\.json|api\/document\/upload\.json)$/.test(ctx.path) && faults.holdFiles > 0) {
        faults.holdFiles--;
        return new Promise((resolve) => faults.heldFiles.push(resolve)).then(() => next());
      }
      // /__faults/parser?starts=1: the next file signing start is refused as a body parser in front of the proxy does (express.json()'s own 413 page)
      if (ctx.path === '/__faults/parser') {
        faults.parserStarts = Number(ctx.query.starts ?? 0);
        ctx.body = { refusing: faults.parserStarts };
        return undefined;
      }
      if (/^\/esign\/(en\/)?(mobile|smartid)\/sign\.json$/.test(ctx.path) && faults.parserStarts > 0) {
        faults.parserStarts--;
        ctx.status = 413;
        ctx.type = 'text/html';
        ctx.body = '<!DOCTYPE html><html><head><title>Error</title></head><body><pre>PayloadTooLargeError: request entity too large</pre></body></html>';
        return undefined;
      }
      if (/^\/esign\/(en\/)?(mobile|smartid)\/(login|sign|sign\/hash)\.json$/.test(ctx.path) && faults.holdStarts > 0) {
        faults.holdStarts--;
        ctx.respond = false;
        return new Promise((resolve) => ctx.req.socket.on('close', resolve));
      }
      if (ctx.path === '/__faults/poll') {
        if (ctx.query.plan !== undefined) Object.assign(faults, { plan: String(ctx.query.plan).split(',').filter(Boolean), seen: 0, faulted: 0 });
        ctx.body = { seen: faults.seen, faulted: faults.faulted, left: faults.plan.length };
        return undefined;
      }
      if (/^\/esign\/(en\/)?(mobile|smartid)\/.*status\//.test(ctx.path) && faults.plan.length) {
        faults.seen++;
        const fault = faults.plan[0] === 'always' ? 'drop' : faults.plan.shift();
        if (fault !== 'pass') {
          faults.faulted++;
          if (fault === 'drop') {
            ctx.req.socket.destroy();
            ctx.respond = false;
            return undefined;
          }
          if (fault === '502') {
            ctx.status = 502;
            ctx.type = 'text/html';
            ctx.body = '<html><body><h1>502 Bad Gateway</h1></body></html>';
            return undefined;
          }
          if (fault === 'stall') return new Promise((resolve) => setTimeout(resolve, 1500)).then(() => next());
          // a broken answer from the side of the service: "ok" and nothing the result is made of
          if (fault === 'empty-ok') {
            ctx.type = 'application/json';
            ctx.body = { status: 'ok' };
            return undefined;
          }
          // never answered: held until the page gives it up and closes the connection
          if (fault === 'hold') {
            ctx.respond = false;
            return new Promise((resolve) => ctx.req.socket.on('close', resolve));
          }
        }
        return next();
      }
      if (faults.language && new RegExp(`^/src/i18n/${faults.language}[-.]`).test(ctx.path)) {
        // a dropped connection: nothing for a cache to keep
        ctx.req.socket.destroy();
        ctx.respond = false;
        return undefined;
      }
      return next();
    },
    (ctx, next) => {
      const handler = ctx.url.startsWith('/esign/') ? proxy : ctx.url.startsWith('/esign-limited/') ? limited : ctx.url.startsWith('/esign-gated/') ? gated : ctx.url.startsWith('/esign-refusing/') ? refusing : null;
      if (!handler) return next();
      ctx.respond = false;
      return new Promise((resolve) => {
        ctx.res.on('finish', resolve);
        handler(ctx.req, ctx.res, () => resolve(next()));
      });
    },
  ],
  concurrency: 1,
  // two engines at once, WebKit after the first to end: with all three beside the checks, a busy
  // two-core machine delayed pages enough to fail timing-bound tests (a 300 ms wait, a start)
  concurrentBrowsers: 2,
  // a test's limit for a machine running the Node and e2e suites beside these (npm test)
  testFramework: { config: { timeout: 60000 } },
  // a file's whole run (the runner's default is 2 minutes): one with several slow tests on that machine took longer, and its tests went uncounted
  testsFinishTimeout: 600000,
  // opening a test page (the runner's default is 30 s): on that machine one took longer once, and its file went unrun
  browserStartTimeout: 120000,
  // ESIGN_BROWSERS=chromium (or a list) runs the suites in fewer engines while working on them
  browsers: [
    ...(onlyBrowsers('chromium') ? [chromeLauncher({ launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS } })] : []),
    ...(onlyBrowsers('firefox') ? [chromeLauncher({ launchOptions: { browser: 'firefox', executablePath: FIREFOX_PATH, headless: true }, createPage: firefoxPage })] : []),
    ...webkit,
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter('test-results/browser.json')],
  testRunnerHtml: (testFramework) => `<!doctype html><html lang="en"><body><script type="module" src="${testFramework}"></script></body></html>`,
};
