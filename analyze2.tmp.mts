import { build } from 'vite';
import { minifyLitTemplates } from './scripts/minify-lit-templates.js';
const [entry, match] = process.argv.slice(2);
const out: any = await build({ configFile: false, logLevel: 'silent', plugins: [minifyLitTemplates()], build: { write: false, minify: false, lib: { entry, formats: ['es'], fileName: 'x' }, rolldownOptions: { output: { minify: false, codeSplitting: false } } } });
for (const o of out[0].output) if (o.type === 'chunk' && o.isEntry) for (const [id, m] of Object.entries(o.modules as Record<string, any>)) if (id.includes(match)) console.log(m.code);
