import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { createProxyHandler } from './src/proxy/index.ts';
import { startSandbox } from 'esign-sandbox';
import { countingReporter } from './scripts/counting-reporter.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH, FIREFOX_PATH } from './scripts/chromium.ts';

const ACCESS_TOKEN = 'browser-test-secret';
let failingLanguage = '';
// persons answer after 300 ms so the suites need not wait; the slow identity stays slow
const sandbox = await startSandbox({ accessToken: ACCESS_TOKEN, answerAfterMs: 300, slowAnswerAfterMs: 60_000 });
// the elements' suites start many sessions for the same test persons: no limits on /esign; the
// limits are shown on /esign-limited (and have their own node suite)
const proxy = createProxyHandler({ baseUrl: sandbox.url, accessToken: ACCESS_TOKEN, prefix: '/esign', operations: 'all', authorize: () => true, rateLimit: false, exposeScreening: true });
const limited = createProxyHandler({
  baseUrl: sandbox.url,
  accessToken: ACCESS_TOKEN,
  prefix: '/esign-limited',
  rateLimit: { perVisitor: { limit: 1, windowMs: 250_000 }, perPerson: false },
});

export default {
  files: ['test/browser/**/*.test.ts'],
  nodeResolve: { exportConditions: ['browser', 'development'] },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: './tsconfig.json' })],
  middleware: [
    // fault injection for the tests: /__faults/lang?fail=lv makes the Latvian strings fail to load until ?fail= clears it
    (ctx, next) => {
      if (ctx.path === '/__faults/lang') {
        failingLanguage = ctx.query.fail || '';
        ctx.body = { failing: failingLanguage };
        return undefined;
      }
      if (failingLanguage && ctx.path.startsWith(`/src/i18n/${failingLanguage}.`)) {
        ctx.status = 503;
        ctx.body = 'unavailable';
        return undefined;
      }
      return next();
    },
    (ctx, next) => {
      const handler = ctx.url.startsWith('/esign/') ? proxy : ctx.url.startsWith('/esign-limited/') ? limited : null;
      if (!handler) return next();
      ctx.respond = false;
      return new Promise((resolve) => {
        ctx.res.on('finish', resolve);
        handler(ctx.req, ctx.res, () => resolve(next()));
      });
    },
  ],
  concurrency: 1,
  testFramework: { config: { timeout: 20000 } },
  browsers: [
    chromeLauncher({ launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS } }),
    chromeLauncher({ launchOptions: { browser: 'firefox', executablePath: FIREFOX_PATH, headless: true } }),
  ],
  reporters: [defaultReporter(), summaryReporter({ flatten: false }), countingReporter('test-results/browser.json')],
  testRunnerHtml: (testFramework) => `<!doctype html><html lang="en"><body><script type="module" src="${testFramework}"></script></body></html>`,
};
