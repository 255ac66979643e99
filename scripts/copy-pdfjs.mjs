// PDF.js for the preview, beside the code that loads it: in the package (dist/elements/document-preview)
// and beside the script-tag files (dist/cdn). The library and its worker are copied as Mozilla builds them,
// in their legacy build: the modern one needs Map.prototype.getOrInsertComputed (not in Firefox ESR 140
// nor in the Safari of many phones still in use), and a preview that fails there fails the person.
import { copyFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const build = dirname(require.resolve('pdfjs-dist/legacy/build/pdf.min.mjs'));
const files = { 'esign-elements-pdf.js': 'pdf.min.mjs', 'esign-elements-pdf-worker.js': 'pdf.worker.min.mjs' };
for (const dir of ['dist/elements/document-preview', 'dist/cdn']) {
  if (!existsSync(dir)) throw new Error(`${dir} is not built`);
  for (const [name, source] of Object.entries(files)) copyFileSync(join(build, source), join(dir, name));
}
copyFileSync(join(dirname(require.resolve('pdfjs-dist/package.json')), 'LICENSE'), 'dist/cdn/esign-elements-pdf-LICENSE.txt');
console.log('PDF.js copied beside the preview');
