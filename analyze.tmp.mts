import { build } from 'vite';
import { gzipSync } from 'node:zlib';
import { minifyLitTemplates } from './scripts/minify-lit-templates.js';
const entry = process.argv[2];
const out: any = await build({ configFile: false, logLevel: 'silent', plugins: [minifyLitTemplates()], build: { write: false, lib: { entry, formats: ['es'], fileName: 'x' }, rolldownOptions: { output: { minify: true, comments: false, inlineDynamicImports: false } } } });
for (const o of out[0].output) {
  if (o.type !== 'chunk') continue;
  const g = gzipSync(o.code, { level: 9 }).length;
  console.log('CHUNK', o.fileName, o.code.length, g);
  if (!o.isEntry) continue;
  const rows = Object.entries(o.modules as Record<string, any>).map(([id, m]) => [id.replace('/work/main/', ''), m.renderedLength, m.code ? gzipSync(m.code, {level:9}).length : 0]);
  rows.sort((a: any, b: any) => b[1] - a[1]);
  for (const r of rows) console.log(String(r[1]).padStart(7), String(r[2]).padStart(6), r[0]);
}
