// The script-tag file of every element (`dist/cdn/esign-<name>.js`), one Vite run each.
import { readdirSync } from 'node:fs';
import { build } from 'vite';

const names = readdirSync(new URL('../src/define/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -3));
for (const name of names) {
  process.env.ESIGN_ELEMENT = name;
  await build({ mode: 'cdn-element', logLevel: 'warn' });
}
console.log(`dist/cdn: ${names.length} element files`);
