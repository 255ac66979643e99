import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build, minifySync, type Rolldown } from 'vite';

/** Ceilings in bytes, min+gzip, by file (and `client`): kept in size-ceilings.json, checked by `npm run size`. */
export const CEILINGS: Record<string, number> = Object.fromEntries(
  Object.entries((JSON.parse(readFileSync('size-ceilings.json', 'utf8')) as { ceilings: Record<string, { bytes: number }> }).ceilings).map(
    ([file, { bytes }]) => [file, bytes],
  ),
);

export interface SizeRow {
  name: string;
  /** The script-tag file (or `client`) a ceiling is kept for. */
  file?: string;
  /** What a page downloads for it: the file and the chunks it imports statically (languages excluded). */
  files: number;
  min: number;
  gzip: number;
  budget?: number;
}

const CDN = 'dist/cdn/';
const gzip = (code: Buffer | string) => gzipSync(code, { level: 9 }).length;

/** A script-tag file and every chunk it imports statically, each gzipped on its own as a server sends it. */
export function scriptTagClosure(file: string, onDemandToo = false, cdn = CDN): { files: number; min: number; gzip: number } {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const code = readFileSync(cdn + path, 'utf8');
    const dir = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : '';
    // static imports only: `import"./x.js"` and `from"./x.js"`; `import("./x.js")` is a language loaded on demand
    const imports = onDemandToo
      ? /(?:\bfrom|\bimport)\s*\(?"(\.\/(?!esign-elements-(?:lt|en|lv|et|ru)-|esign-elements-pdf)[^"]+)"/g
      : /(?:\bfrom|\bimport)\s*"(\.\/[^"]+)"/g;
    for (const found of code.matchAll(imports)) {
      const target = new URL(found[1] as string, `file:///${dir}`).pathname.slice(1);
      visit(target);
    }
  };
  visit(file);
  let min = 0;
  let zipped = 0;
  for (const path of seen) {
    const code = readFileSync(cdn + path);
    min += code.length;
    zipped += gzip(code);
  }
  return { files: seen.size, min, gzip: zipped };
}

async function bundled(entry: string): Promise<{ files: number; min: number; gzip: number }> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, lib: { entry, formats: ['es'], fileName: 'bench' }, rolldownOptions: { output: { minify: true, comments: false } } },
  })) as Rolldown.RolldownOutput[];
  const chunk = output[0]!.output.find((item) => item.type === 'chunk' && item.isEntry) as Rolldown.OutputChunk;
  return { files: 1, min: Buffer.byteLength(chunk.code), gzip: gzip(chunk.code) };
}

/** Sizes of what the build wrote (run after `npm run build`). */
export async function measureSizes(): Promise<SizeRow[]> {
  const rows: SizeRow[] = [];
  const ceiling = (file: string) => (CEILINGS[file] === undefined ? {} : { budget: CEILINGS[file] });
  rows.push({
    name: 'the all-in-one file, the login inside: dist/cdn/esign-elements.js',
    file: 'esign-elements.js',
    ...scriptTagClosure('esign-elements.js'),
    ...ceiling('esign-elements.js'),
  });
  rows.push({
    name: 'the all-in-one file with every element it loads when they appear (languages and PDF.js aside)',
    ...scriptTagClosure('esign-elements.js', true),
  });
  const elements = readdirSync(CDN)
    .filter((f) => /^esign-(?!elements)[a-z-]+\.js$/.test(f))
    .sort();
  for (const file of elements) {
    rows.push({ name: `${file.slice(0, -3)} alone: dist/cdn/${file}`, file, ...scriptTagClosure(file), ...ceiling(file) });
  }
  rows.push({ name: 'the client alone: esign-elements/client', file: 'client', ...(await bundled('src/client/index.ts')), ...ceiling('client') });
  const languageParts = readdirSync(CDN)
    .filter((f) => /^esign-elements-(lt|en|lv|et|ru)-(form|session|documents)\.js$/.test(f))
    .sort();
  for (const file of languageParts) {
    const code = readFileSync(CDN + file);
    const [, lang, part] = /^esign-elements-(\w\w)-(\w+)\.js$/.exec(file)!;
    rows.push({ name: `language on demand: ${lang}, ${part} part`, files: 1, min: code.length, gzip: gzip(code) });
  }
  // what a page really loads before its first words show: the file and the parts of one language its elements say
  const partOf = (lang: string, part: string) => `esign-elements-${lang}-${part}.js`;
  for (const [name, file, parts] of [
    ['esign-identify with its Lithuanian words', 'esign-identify.js', ['session']],
    ['the all-in-one file with its Lithuanian words', 'esign-elements.js', ['session']],
  ] as const) {
    const page = scriptTagClosure(file);
    for (const part of parts) {
      const code = readFileSync(CDN + partOf('lt', part));
      page.files += 1;
      page.min += code.length;
      page.gzip += gzip(code);
    }
    rows.push({ name: `a page: ${name}`, ...page });
  }
  // what loads only when it is needed: a host's Mobile-ID message check, a session kept across a reload
  for (const [name, pattern] of [
    ['phone-message check on demand', /^esign-elements-phone-message-[\w-]+\.js$/],
    ['after the form is on screen: a kept session, the time left after a rate limit (largest)', /^esign-elements-session-controller-[\w-]+\.js$/],
  ] as const) {
    const files = readdirSync(CDN).filter((f) => pattern.test(f));
    const sizes = files.map((file) => readFileSync(CDN + file)).sort((a, b) => gzip(b) - gzip(a));
    if (sizes[0]) rows.push({ name, files: 1, min: sizes[0].length, gzip: gzip(sizes[0]) });
  }
  // what a preview adds when it is shown (not counted in the budgets)
  const engine = readdirSync(CDN).find((f) => /^esign-elements-engine-/.test(f));
  const viewer = /import\(["'`]\.\/(esign-elements-viewer-[\w-]+\.js)["'`]\)/.exec(readFileSync(`${CDN}esign-document-preview.js`, 'utf8'))?.[1];
  for (const [name, file] of [
    ['preview on demand: viewer', viewer],
    ['preview on demand: engine', engine],
    ['preview on demand: PDF.js', 'esign-elements-pdf.js'],
    ['preview on demand: PDF.js worker', 'esign-elements-pdf-worker.js'],
  ] as const) {
    if (!file) continue;
    const code = readFileSync(CDN + file);
    rows.push({ name: `${name} (${file})`, files: 1, min: code.length, gzip: gzip(code) });
  }
  return rows;
}

export function sizeTable(rows: SizeRow[]): string {
  const lines = ['| what a page loads | files | min | min+gzip | budget |', '|---|---:|---:|---:|---|'];
  for (const row of rows) {
    const verdict = row.budget === undefined ? '' : `${row.budget.toLocaleString('en')} B ${row.gzip <= row.budget ? 'ok' : 'OVER'}`;
    lines.push(`| ${row.name} | ${row.files} | ${row.min.toLocaleString('en')} B | ${row.gzip.toLocaleString('en')} B | ${verdict} |`);
  }
  return lines.join('\n');
}

export interface HoldingRow {
  /** A group of modules: Lit, or a folder of ours (`elements/identify`, `internal`, `client`, …). */
  group: string;
  /** The group's estimated share of the file's min+gzip bytes. */
  gzip: number;
}

/** The group a bundled module belongs to. */
function groupOf(id: string): string {
  if (/node_modules\/(lit|lit-html|lit-element|@lit)\//.test(id)) return 'Lit';
  const ours = /\/src\/(.+)$/.exec(id)?.[1];
  if (!ours) return 'other';
  const parts = ours.split('/');
  if (parts[0] === 'elements' || parts[0] === 'internal') {
    const file = parts.at(-1)!;
    if (/\.styles\.ts$|^theme\.ts$/.test(file)) return 'styles';
    return parts[0] === 'elements' ? `elements/${parts[1]}` : parts[1] === 'validation' ? 'internal/validation' : 'internal';
  }
  return parts.length > 1 ? parts[0]! : 'entry';
}

/**
 * What a script-tag file holds, by module group: the file is built again in memory and each
 * group's share of its gzip bytes is estimated from the gzip size of the group's own minified code.
 */
export async function whatItHolds(element: string | null): Promise<{ file: string; gzip: number; groups: HoldingRow[] }> {
  if (element) process.env['ESIGN_ELEMENT'] = element;
  const output = (await build({ mode: element ? 'cdn-element' : 'cdn', logLevel: 'silent', build: { write: false } })) as
    Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const chunk = [output]
    .flat()
    .flatMap((out) => out.output)
    .find((item): item is Rolldown.OutputChunk => item.type === 'chunk' && item.isEntry)!;
  const weights = new Map<string, number>();
  for (const [id, module] of Object.entries(chunk.modules)) {
    if (!module.code) continue;
    const group = groupOf(id);
    // each module minified on its own (Lit's files come minified, ours not) before it is weighed
    weights.set(group, (weights.get(group) ?? 0) + gzip(minifySync(`${id}.js`, module.code, { compress: true, mangle: { toplevel: false } }).code));
  }
  const total = gzip(chunk.code);
  const sum = [...weights.values()].reduce((a, b) => a + b, 0);
  const groups = [...weights].map(([group, weight]) => ({ group, gzip: Math.round((weight / sum) * total) })).sort((a, b) => b.gzip - a.gzip);
  return { file: chunk.fileName, gzip: total, groups };
}

export function holdingTable(holding: { file: string; gzip: number; groups: HoldingRow[] }): string {
  const lines = [`| ${holding.file} (${holding.gzip.toLocaleString('en')} B) holds | ≈ min+gzip | share |`, '|---|---:|---:|'];
  for (const row of holding.groups) lines.push(`| ${row.group} | ${row.gzip.toLocaleString('en')} B | ${Math.round((row.gzip / holding.gzip) * 100)}% |`);
  return lines.join('\n');
}
