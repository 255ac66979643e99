import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import puppeteer, { type Browser } from 'puppeteer-core';
import { build, type Rolldown } from 'vite';
import { strings as lt } from '../src/i18n/lt-form.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../scripts/chromium.js';

/**
 * A login page on a slow phone, from navigation to the Lithuanian form on screen: the page with
 * `esign-identify.js` and nothing else (the form's words are in the file) beside a floor page that
 * loads Lit alone, bundled by Vite, and renders one element with the same words. Cold every time
 * (a fresh browser context, cache off), on loopback, in Chromium throttled as a mid-range phone.
 */
export const SLOW_PHONE = {
  cpuSlowdown: 4,
  downloadBitsPerSecond: 1_600_000,
  uploadBitsPerSecond: 750_000,
  roundTripMs: 150,
} as const;

export interface SlowPhoneResult {
  runs: number;
  /** Median ms from navigation to the form's words painted. */
  floor: number;
  login: number;
  /** The same login page with the all-in-one file. */
  every: number;
  /** login / floor: the goal is 1.15 or less. */
  ratio: number;
  /** Each page's fastest and slowest load, ms: how far one run may stray from the median. */
  spread: Record<'floor' | 'login' | 'every', [number, number]>;
}

/** The floor page's script: Lit and the element, bundled and minified by Vite. */
export async function floorScript(): Promise<string> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      lib: { entry: 'bench/floor-element.ts', formats: ['es'], fileName: 'floor' },
      rolldownOptions: { output: { minify: true, comments: false } },
    },
  })) as Rolldown.RolldownOutput[];
  const chunk = output[0]!.output.find((item) => item.type === 'chunk' && item.isEntry) as Rolldown.OutputChunk;
  return chunk.code;
}

/**
 * Marks when the form's words are on screen: a classic script, the same on every page, that looks
 * through the shadow roots each frame and notes the time of the first frame that holds them.
 */
const WATCH = `<script>
(function () {
  var words = ${JSON.stringify([lt['form.code'], lt['identify.submit']])};
  function text(node) {
    var out = '';
    for (var child = node.firstChild; child; child = child.nextSibling) out += child.nodeType === 3 ? child.data : text(child);
    if (node.shadowRoot) out += text(node.shadowRoot);
    return out;
  }
  function look() {
    var seen = text(document.body || document.documentElement);
    if (words.every(function (w) { return seen.indexOf(w) >= 0; })) requestAnimationFrame(function () { window.formShownAt = performance.now(); });
    else requestAnimationFrame(look);
  }
  requestAnimationFrame(look);
})();
</script>`;

function page(head: string, body: string): string {
  return `<!doctype html><html lang="lt"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Prisijungimas</title>${head}${WATCH}</head><body>${body}</body></html>`;
}

const PAGES = {
  floor: page('<script type="module" src="/floor.js"></script>', '<floor-login></floor-login>'),
  login: page('<script type="module" src="/cdn/esign-identify.js"></script>', '<esign-identify endpoint="/esign"></esign-identify>'),
  every: page('<script type="module" src="/cdn/esign-elements.js"></script>', '<esign-identify endpoint="/esign"></esign-identify>'),
} as const;
type PageName = keyof typeof PAGES;

/** Serves the pages, the floor's script and dist/cdn, compressed as a CDN sends them. */
export async function serve(floor: string): Promise<{ server: Server; origin: string }> {
  const compressed = new Map<string, Buffer>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://loopback').pathname;
    let body: string | Buffer | undefined;
    let type = 'text/javascript';
    const name = path.slice(1).replace(/\.html$/, '') as PageName;
    if (name in PAGES) {
      body = PAGES[name];
      type = 'text/html; charset=utf-8';
    } else if (path === '/floor.js') body = floor;
    else if (/^\/cdn\/[\w.-]+\.js$/.test(path)) {
      try {
        body = readFileSync(`dist/cdn/${path.slice(5)}`);
      } catch {
        body = undefined;
      }
    }
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    // gzip, as every CDN sends it (Brotli is not everywhere); compressed once, before the first
    // answer is timed (a CDN keeps them so), not on every request
    let encoded = compressed.get(path);
    if (!encoded) compressed.set(path, (encoded = gzipSync(body, { level: 9 })));
    response.writeHead(200, { 'content-type': type, 'content-encoding': 'gzip', 'cache-control': 'no-store', vary: 'accept-encoding' });
    response.end(encoded);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  return { server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** One cold load of a page on the slow profile: ms from navigation to the form painted. */
async function coldLoad(browser: Browser, url: string): Promise<number> {
  const context = await browser.createBrowserContext();
  try {
    const tab = await context.newPage();
    const cdp = await tab.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: SLOW_PHONE.roundTripMs,
      downloadThroughput: SLOW_PHONE.downloadBitsPerSecond / 8,
      uploadThroughput: SLOW_PHONE.uploadBitsPerSecond / 8,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_PHONE.cpuSlowdown });
    await tab.goto(url, { waitUntil: 'load' });
    await tab.waitForFunction(() => typeof (window as { formShownAt?: number }).formShownAt === 'number', { polling: 100, timeout: 30_000 });
    return await tab.evaluate(() => (window as unknown as { formShownAt: number }).formShownAt);
  } finally {
    await context.close();
  }
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/**
 * The pages side by side, interleaved run by run so that the machine's mood falls on all of them,
 * in turn first and second (a load can meet the end of the one before it: a closing context).
 */
export async function measureSlowPhone(runs = 25): Promise<SlowPhoneResult> {
  const { server, origin } = await serve(await floorScript());
  const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const times: Record<PageName, number[]> = { floor: [], login: [], every: [] };
  try {
    // one load of each first, not counted: the browser's own start-up costs land on no page
    for (const name of Object.keys(PAGES) as PageName[]) await coldLoad(browser, `${origin}/${name}.html`);
    for (let run = 0; run < runs; run++) {
      const names = Object.keys(PAGES) as PageName[];
      for (const name of run % 2 ? names.reverse() : names) times[name].push(await coldLoad(browser, `${origin}/${name}.html`));
    }
  } finally {
    await browser.close();
    server.close();
  }
  const floor = median(times.floor);
  const login = median(times.login);
  const spreadOf = (values: number[]): [number, number] => [Math.min(...values), Math.max(...values)];
  return {
    runs,
    floor,
    login,
    every: median(times.every),
    ratio: login / floor,
    spread: { floor: spreadOf(times.floor), login: spreadOf(times.login), every: spreadOf(times.every) },
  };
}

export function slowPhoneTable(result: SlowPhoneResult): string {
  const ms = (n: number) => `${Math.round(n)} ms`;
  const times = (n: number) => `${(n / result.floor).toFixed(2)}×`;
  const spread = ([low, high]: [number, number]) => `${Math.round(low)}–${Math.round(high)} ms`;
  return [
    `| a login page on a slow phone (${SLOW_PHONE.cpuSlowdown}× CPU, 1.6 Mbit/s down, 750 kbit/s up, ${SLOW_PHONE.roundTripMs} ms round trip, cold, gzip), navigation to the Lithuanian form on screen, median of ${result.runs}, the pages taking turns | time | fastest–slowest | against the floor |`,
    '|---|---:|---:|---:|',
    `| floor: Lit alone bundled by Vite, the same form with only the words it shows | ${ms(result.floor)} | ${spread(result.spread.floor)} | 1.00× |`,
    `| esign-identify.js, nothing else on the page | ${ms(result.login)} | ${spread(result.spread.login)} | ${times(result.login)} (goal ≤ 1.15×) |`,
    `| esign-elements.js, the all-in-one file, on the same page | ${ms(result.every)} | ${spread(result.spread.every)} | ${times(result.every)} (goal ≤ 1.20×) |`,
  ].join('\n');
}
