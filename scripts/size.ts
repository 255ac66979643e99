/**
 * `npm run size` (after `npm run build`): each script-tag file with what it imports statically, and
 * the client alone, against its ceiling in size-ceilings.json. Fails over any ceiling, and for a
 * script-tag file that has none (a new element gets its ceiling with its first commit).
 *
 * `npm run size -- identify sign`: those elements' script-tag files alone, each built by itself
 * (no full build first), against their ceilings in src/registry.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { REGISTRY } from '../src/registry.js';
import { measureSizes, scriptTagClosure, sizeTable, type SizeRow } from '../bench/sizes.js';

/** One element's script-tag file, built into a folder of its own and measured there. */
async function oneElement(name: string): Promise<SizeRow> {
  const entry = REGISTRY.find((e) => e.name === name);
  if (!entry) throw new Error(`no element "${name}" in src/registry.ts (${REGISTRY.map((e) => e.name).join(', ')})`);
  const dir = mkdtempSync(join(tmpdir(), 'esign-size-'));
  try {
    process.env['ESIGN_ELEMENT'] = name;
    await build({ mode: 'cdn-element', logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
    const file = `esign-${name}.js`;
    return { name: `${file.slice(0, -3)} alone, built by itself`, file, ...scriptTagClosure(file, false, `${dir}/`), budget: entry.ceiling.bytes };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const names = process.argv.slice(2);
const rows: SizeRow[] = [];
// one at a time: the build reads its element from the environment
for (const name of names) rows.push(await oneElement(name));
if (!names.length) rows.push(...(await measureSizes()).filter((row) => row.file));
console.log(sizeTable(rows));
const over = rows.filter((row) => row.budget !== undefined && row.gzip > row.budget);
const without = rows.filter((row) => row.budget === undefined);
for (const row of over) console.error(`over its ceiling: ${row.file} is ${row.gzip} B, its ceiling ${row.budget} B`);
for (const row of without) console.error(`no ceiling in size-ceilings.json for ${row.file}`);
if (over.length || without.length) process.exit(1);
console.log(`\n${rows.length} files within their ceilings`);
