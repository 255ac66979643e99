// The script-tag file of every element (`dist/cdn/esign-<name>.js`), one Vite run each, and the client's.
import { existsSync, readdirSync } from 'node:fs';
import { build } from 'vite';

// every element folder with a define entry (the registry's, as its check keeps them)
const names = readdirSync(new URL('../src/elements/', import.meta.url)).filter((name) =>
  existsSync(new URL(`../src/elements/${name}/define.ts`, import.meta.url)),
);
for (const name of names) {
  process.env.ESIGN_ELEMENT = name;
  await build({ mode: 'cdn-element', logLevel: 'warn' });
}
await build({ mode: 'cdn-client', logLevel: 'warn' });
console.log(`dist/cdn: ${names.length} element files and the client`);
