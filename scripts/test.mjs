// `npm test`: builds once, then runs every check and suite, even when one fails: the Node and
// end-to-end suites (files in parallel: each takes free ports and state of its own) with the
// browser suites beside them, the PHP package's tests, then the type checks, lint, the format
// check and the size ceilings side by side. Prints each stage's
// time and ends with `N passed, N failed` (the line CI reads); each check counts as one test.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Node and e2e files at once: most of their time is spent waiting for processes and sockets. */
const NODE_CONCURRENCY = Number(process.env.ESIGN_TEST_CONCURRENCY ?? Math.max(4, availableParallelism() * 2));

/**
 * The files that take longest, started first so that the short ones fill the gaps beside them (a
 * file missing here only starts later).
 */
const SLOW_FIRST = [
  // the longest alone (packs, installs and type-checks an empty app): started first, it is not the run's tail
  'test/node/built-package.test.ts',
  'test/e2e/examples-angular.test.ts',
  'test/e2e/examples-next.test.ts',
  'test/node/check-proxy.test.ts',
  'test/node/oidc-provider.test.ts',
  // its next-auth site is installed and built: after the two framework examples' builds, not beside them
  'test/e2e/any-stack.test.ts',
  'test/node/proxy-php.test.ts',
  'test/node/check-proxy-broken.test.ts',
  'test/e2e/python-sites.test.ts',
  'test/e2e/bad-network.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/documents.test.ts',
  'test/node/packed-proxy.test.ts',
  'test/node/host-sessions.test.ts',
  'test/e2e/examples-vite.test.ts',
  'test/node/esign-proxy.test.ts',
  'test/node/debian-packages.test.ts',
  'test/e2e/screen-reader.test.ts',
];
const rank = (file) => (SLOW_FIRST.includes(file) ? SLOW_FIRST.indexOf(file) : SLOW_FIRST.length);

const stages = [];
const totals = { passed: 0, failed: 0 };

/** Runs a command; its output goes on (kept when `keep`), prefixed lines are not mixed within a line. */
function run(command, args, { keep = false, quiet = false } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const take = (stream, into) =>
      child[stream].on('data', (chunk) => {
        if (keep) output += chunk;
        if (!quiet) into.write(chunk);
      });
    take('stdout', process.stdout);
    take('stderr', process.stderr);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** Runs a stage and keeps its wall time. */
async function stage(name, work) {
  const started = Date.now();
  try {
    return await work();
  } finally {
    stages.push({ name, seconds: (Date.now() - started) / 1000 });
  }
}

/** A check counts as one test: passed when its command exits 0. */
async function check(name, command, args) {
  const { code, output } = await stage(name, () => run(command, args, { keep: true, quiet: true }));
  if (code === 0) totals.passed++;
  else {
    totals.failed++;
    process.stdout.write(`\n${name} failed:\n${output}\n`);
  }
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const built = await stage('build', () => run(npm, ['run', 'build', '--silent'], { keep: true, quiet: true }));
if (built.code !== 0) {
  process.stdout.write(built.output);
  console.log('the build failed: nothing else can run\n0 passed, 1 failed');
  process.exit(1);
}

/** The checks, side by side once the suites are done. */
async function checks() {
  await Promise.all([
    check('typecheck', npm, ['run', 'typecheck', '--silent']),
    check('lint', npm, ['run', 'lint', '--silent']),
    check('format', npm, ['run', 'format:check', '--silent']),
    check('size', npm, ['run', 'size', '--silent']),
  ]);
}

const nodeSuites = stage('node and e2e suites', async () => {
  const files = ['test/node', 'test/e2e']
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.test.ts'))
        .map((f) => `${dir}/${f}`),
    )
    .sort((a, b) => rank(a) - rank(b));
  const node = await run(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${NODE_CONCURRENCY}`, '--test-reporter=spec', ...files], {
    keep: true,
  });
  const pass = Number(/ℹ pass (\d+)/.exec(node.output)?.[1] ?? 0);
  const fail = Number(/ℹ fail (\d+)/.exec(node.output)?.[1] ?? 0);
  totals.passed += pass;
  // no test passed, or the runner failed with none counted as failed: something kept the suites from running
  totals.failed += fail + (pass > 0 ? 0 : 1) + (node.code !== 0 && fail === 0 && pass > 0 ? 1 : 0);
});

// the browser suites beside the Node and e2e suites (both wait on browsers, servers and sockets more
// than on the cores; no test of either times a machine: a loaded run passes), their report at its end
rmSync('test-results/browser.json', { force: true });
const browserSuites = stage('browser suites', () =>
  run(process.execPath, ['--import', 'tsx', 'node_modules/@web/test-runner/dist/bin.js'], { keep: true, quiet: true }),
);
// the checks side by side as soon as either suite is done: they take the core it leaves
const checked = Promise.race([nodeSuites, browserSuites]).then(checks, checks);
const [, browser] = await Promise.all([nodeSuites, browserSuites]);
process.stdout.write(browser.output);

// the PHP proxy package's own tests (Debian's phpunit): its count is in the totals
await stage('php unit tests', async () => {
  const php = await run('phpunit', ['-c', 'php/phpunit.xml.dist'], { keep: true });
  const ok = /^OK \((\d+) tests?,/m.exec(php.output);
  const counts = /^Tests: (\d+), Assertions: \d+(?:, Errors: (\d+))?(?:, Failures: (\d+))?/m.exec(php.output);
  if (ok && php.code === 0) totals.passed += Number(ok[1]);
  else if (counts) {
    const failed = Number(counts[2] ?? 0) + Number(counts[3] ?? 0);
    totals.passed += Number(counts[1]) - failed;
    totals.failed += Math.max(failed, 1);
  } else totals.failed++;
});

await checked;
let counted = null;
try {
  counted = JSON.parse(readFileSync('test-results/browser.json', 'utf8'));
} catch {
  // no totals written: the runner did not finish
}
if (counted) {
  totals.passed += counted.passed;
  totals.failed += counted.failed;
}
if (!counted || (browser.code !== 0 && counted.failed === 0)) totals.failed++;

console.log('\nstage times (the browser suites beside the Node and e2e suites, the checks side by side once either is done):');
for (const { name, seconds } of stages) console.log(`  ${name.padEnd(22)} ${seconds.toFixed(1).padStart(7)} s`);
console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
