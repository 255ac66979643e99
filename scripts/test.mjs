// Runs every suite (node, then browsers), even when one fails, and ends with the totals line.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
    });
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const totals = { passed: 0, failed: 0 };

const nodeFiles = ['test/node', 'test/e2e'].flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith('.test.ts')).map((f) => `${dir}/${f}`));
const node = await run(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...nodeFiles]);
const pass = /ℹ pass (\d+)/.exec(node.output);
const fail = /ℹ fail (\d+)/.exec(node.output);
totals.passed += Number(pass?.[1] ?? 0);
totals.failed += Number(fail?.[1] ?? 0) + (pass && Number(pass[1]) > 0 ? 0 : 1);
if (node.code !== 0 && Number(fail?.[1] ?? 0) === 0) totals.failed++;

rmSync('test-results/browser.json', { force: true });
const browser = await run(process.execPath, ['--import', 'tsx', 'node_modules/@web/test-runner/dist/bin.js']);
try {
  const counted = JSON.parse(readFileSync('test-results/browser.json', 'utf8'));
  totals.passed += counted.passed;
  totals.failed += counted.failed;
} catch {
  totals.failed++;
}
if (browser.code !== 0 && totals.failed === 0) totals.failed++;

console.log(`${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
