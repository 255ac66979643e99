// Writes the proxy's rulebook (src/protocol/proxy-rules.ts) as proxy-rules.json beside the Python
// and PHP proxies, and into dist/ for the package (with --dist). With --check, fails when a copy
// differs from what the rulebook makes (CI runs the check through test/node/proxy-rules.test.ts).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { proxyRulesDocument } from '../src/protocol/proxy-rules.js';

const COPIES = ['examples/proxy-python/proxy-rules.json', 'examples/proxy-php/proxy-rules.json'];
const text = `${JSON.stringify(proxyRulesDocument(), null, 2)}\n`;
const targets = process.argv.includes('--dist') ? ['dist/proxy-rules.json'] : COPIES;

if (process.argv.includes('--check')) {
  const stale = COPIES.filter((file) => !existsSync(file) || readFileSync(file, 'utf8') !== text);
  if (stale.length) {
    console.error(`not made from src/protocol/proxy-rules.ts: ${stale.join(', ')} (run npm run proxy-rules)`);
    process.exit(1);
  }
  console.log('the rulebook and its copies agree');
} else {
  for (const file of targets) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}
