// Writes the proxy's rulebook (src/protocol/proxy-rules.ts) as proxy-rules.json beside the PHP
// proxy and as the table of docs/proxy-checklist.md, and into dist/ for the package (with --dist). With --check, fails when a copy
// differs from what the rulebook makes (CI runs the check through test/node/proxy-rules.test.ts).
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { proxyRulesDocument } from '../src/protocol/proxy-rules.js';
import { DELIVERY_SCHEMA } from '../src/server/delivery-schema.js';

const COPIES = ['php/proxy-rules.json'];
const DOC = 'docs/proxy-checklist.md';
/** check-proxy's copy of the numbers it checks: the sandbox imports nothing of the widget, so it gets a module of its own. */
const CHECK_PROXY_COPY = 'sandbox/src/check-proxy/rulebook.ts';
const rules = proxyRulesDocument();
const text = `${JSON.stringify(rules, null, 2)}\n`;

function checkProxyCopy(): string {
  const numbers = {
    rateLimits: rules.rateLimits,
    minPollIntervalMs: rules.minPollIntervalMs,
    sessionBodyLimit: rules.sessionBodyLimit,
    storeRetryAfterSeconds: rules.storeRetryAfterSeconds,
  };
  return `// Written by npm run proxy-rules from src/protocol/proxy-rules.ts; do not edit (a test fails on a stale copy).
// The numbers check-proxy holds a proxy to, as the rulebook states them.
export const RULEBOOK = ${JSON.stringify(numbers, null, 2)} as const;
`;
}

const minutes = (ms: number) => `${ms / 60_000} min`;
const seconds = (ms: number) => `${ms / 1000} s`;
const bytes = (n: number) => (n >= 1024 * 1024 ? `${n / (1024 * 1024)} MB` : `${n / 1024} KB`);
const limit = (rule: { limit: number; windowMs: number }) => `${rule.limit} in ${minutes(rule.windowMs)}`;

/** What each proxy does, the numbers from the rulebook; how each keeps them, in a few words. */
function table(): string {
  const rows: [string, string, string, string][] = [
    ['operations forwarded', `${rules.sessionOperations.length} session operations, both locales`, 'same; `operations` adds document ones', 'same'],
    ['starts per person', limit(rules.rateLimits.perPerson), 'store: memory or Redis', 'SQLite file'],
    ['starts per visitor', limit(rules.rateLimits.perVisitor), 'same', 'same'],
    ['starts per address', limit(rules.rateLimits.perAddress), 'with `clientAddress`', 'with `ESIGN_LIMIT_BY_ADDRESS`'],
    ['poll floor', `${rules.minPollIntervalMs} ms`, 'same', 'same'],
    ['bodies without files', bytes(rules.sessionBodyLimit), 'same', 'same'],
    ['bodies with files', bytes(rules.bodyLimit), 'same', "the web server's limit"],
    ['a started session is bound', minutes(rules.sessionTtlMs), 'same', 'same'],
    ['a finished session is kept', minutes(rules.finishedSessionTtlMs), 'same', 'same'],
    [
      'result lease, renewed while the hook runs, up to its time limit',
      `${seconds(rules.result.leaseMs)}, every ${seconds(rules.result.renewEveryMs)}`,
      'a timer',
      `a helper process that stops with the worker; without \`proc_open\` or a CLI, held for the time limit and ${seconds(rules.result.leaseMarginMs)}`,
    ],
    ['result hook time limit', seconds(rules.result.timeoutMs), '`signal` aborts; counts as failed', 'counts as failed when it returns'],
    [
      'a poll answers `waiting` while the hook runs on',
      `after ${seconds(rules.result.waitMs)}`,
      'the run goes on',
      'no: the poll runs the hook (the cookies it sets must leave with an answer), and the log says so when it took longer; other polls answer `waiting`, and a poll the browser gave up on still ends the run, the next one bringing the result and its cookies',
    ],
    ['a login gives the browser a new visitor id', 'yes', 'kept for a late poll', 'same'],
    ["the session's `finished` event", 'once', 'same', 'same'],
    ['state away', `503, Retry-After ${rules.storeRetryAfterSeconds} s`, 'store calls bounded at 1 s', 'SQLite lock wait 1 s'],
    ['event names', rules.events.types.join(', '), 'to `onEvent`', 'JSON lines on stderr'],
  ];
  const lines = ['| rule | rulebook | Node | PHP |', '|---|---|---|---|', ...rows.map((row) => `| ${row.join(' | ')} |`)];
  return `<!-- proxy-rules:start -->\n<!-- made from src/protocol/proxy-rules.ts by npm run proxy-rules -->\n${lines.join('\n')}\n<!-- proxy-rules:end -->`;
}

function withTable(doc: string): string {
  return doc.replace(/<!-- proxy-rules:start -->[\s\S]*?<!-- proxy-rules:end -->/, table());
}

if (process.argv.includes('--check')) {
  const stale = COPIES.filter((file) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
  if (!existsSync(CHECK_PROXY_COPY) || readFileSync(CHECK_PROXY_COPY, 'utf8') !== checkProxyCopy()) stale.push(CHECK_PROXY_COPY);
  const doc = readFileSync(DOC, 'utf8');
  if (withTable(doc) !== doc) stale.push(DOC);
  if (stale.length) {
    console.error(`not made from src/protocol/proxy-rules.ts: ${stale.join(', ')} (run npm run proxy-rules)`);
    process.exit(1);
  }
  console.log('the rulebook and its copies agree');
} else if (process.argv.includes('--dist')) {
  mkdirSync('dist', { recursive: true });
  writeFileSync('dist/proxy-rules.json', text);
  // what esign-proxy POSTs to a host's webhook (docs/any-stack.md), for a host's own validation
  writeFileSync('dist/webhook-delivery.schema.json', `${JSON.stringify(DELIVERY_SCHEMA, null, 2)}\n`);
  // the PHP proxy package in the npm package, whole but for its tests: a host copies the folder, or
  // names it as a Composer path repository
  mkdirSync('dist/proxies/php', { recursive: true });
  for (const part of ['composer.json', 'proxy.php', 'session-recipe.php', 'src']) cpSync(`php/${part}`, `dist/proxies/php/${part}`, { recursive: true });
  writeFileSync('dist/proxies/php/proxy-rules.json', text);
} else {
  for (const file of COPIES) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  writeFileSync(CHECK_PROXY_COPY, checkProxyCopy());
  writeFileSync(DOC, withTable(readFileSync(DOC, 'utf8')));
}
