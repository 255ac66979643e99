/**
 * `npm run size` (after `npm run build`): each script-tag file with what it imports statically, and
 * the client alone, against its ceiling in size-ceilings.json. Fails over any ceiling, and for a
 * script-tag file that has none (a new element gets its ceiling with its first commit).
 */
import { measureSizes, sizeTable } from '../bench/sizes.js';

const rows = (await measureSizes()).filter((row) => row.file);
console.log(sizeTable(rows));
const over = rows.filter((row) => row.budget !== undefined && row.gzip > row.budget);
const without = rows.filter((row) => row.budget === undefined);
for (const row of over) console.error(`over its ceiling: ${row.file} is ${row.gzip} B, its ceiling ${row.budget} B`);
for (const row of without) console.error(`no ceiling in size-ceilings.json for ${row.file}`);
if (over.length || without.length) process.exit(1);
console.log(`\n${rows.length} files within their ceilings`);
