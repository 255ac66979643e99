// Subresource Integrity for the script-tag files: dist/cdn/integrity.json maps each module file of
// dist/cdn to its sha384 digest, so a page loading them from a CDN can pin the entry file
// (`integrity` on its script tag) and every chunk it loads later (an import map's `integrity`).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const dir = 'dist/cdn';
const digests = {};
for (const file of readdirSync(dir)
  .filter((name) => name.endsWith('.js'))
  .sort()) {
  digests[file] = `sha384-${createHash('sha384')
    .update(readFileSync(`${dir}/${file}`))
    .digest('base64')}`;
}
writeFileSync(`${dir}/integrity.json`, `${JSON.stringify(digests, null, 2)}\n`);
console.log(`integrity of ${Object.keys(digests).length} script-tag files written`);
