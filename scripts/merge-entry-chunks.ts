import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { build, type Plugin, type Rolldown } from 'vite';

/**
 * Makes the entry of a script-tag build one file again. When lazily loaded chunks share modules
 * with the entry (Lit, the base element), the bundler moves those modules into chunks of their own
 * that the entry imports statically (rolldown#10731): one more round trip before the page draws.
 * After the build is written, this bundles the entry with those chunks into the entry's file, which
 * exports what they exported under names of its own (`__c0_a`), and points every other chunk's
 * imports of them at the entry. See docs/decisions/0008.
 */
export function mergeEntryChunks(): Plugin {
  return {
    name: 'esign-merge-entry-chunks',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir;
      if (!dir) throw new Error('mergeEntryChunks needs an output directory');
      const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      if (!entry) throw new Error('mergeEntryChunks: no entry chunk');
      // the bundler's own helpers (a module namespace built for an import() of a module another chunk
      // also imports by name) come as a chunk of their own too: into the entry, not one more request later
      const runtime = chunks.filter((chunk) => chunk.name === 'rolldown-runtime');
      const merged = [...new Set([...staticChunks(entry, bundle), ...runtime])];
      if (!merged.length) return;

      const prefix = (index: number) => `__c${index}_`;
      const taken = new Set(entry.exports);
      const reExports = merged.map((chunk, index) => {
        for (const name of chunk.exports) if (taken.has(prefix(index) + name)) throw new Error(`mergeEntryChunks: ${prefix(index)}${name} is taken`);
        const names = chunk.exports.map((name) => `${name} as ${prefix(index)}${name}`).join(', ');
        return `export { ${names} } from ${JSON.stringify(join(dir, chunk.fileName))};`;
      });
      const virtualName = '\0esign-merged-entry';
      const inside = new Set([entry, ...merged].map((chunk) => resolve(dir, chunk.fileName)));
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a build with write: false answers its output, not a watcher
      const result = (await build({
        configFile: false,
        logLevel: 'warn',
        plugins: [
          {
            name: 'esign-merged-entry',
            enforce: 'pre',
            resolveId(source, importer) {
              // the library entry comes as a path under the root
              if (source.endsWith(virtualName)) return virtualName;
              const path = resolve(importer && importer !== virtualName ? dirname(importer) : dir, source);
              // the entry and its static chunks are bundled; every other file stays where it is
              return inside.has(path) ? path : { id: source, external: true };
            },
            load(id) {
              if (id === virtualName) return [`export * from ${JSON.stringify(join(dir, entry.fileName))};`, ...reExports].join('\n');
              return null;
            },
          },
        ],
        build: {
          write: false,
          lib: { entry: virtualName, formats: ['es'], fileName: () => entry.fileName },
          rolldownOptions: { preserveEntrySignatures: 'strict', output: { minify: true, comments: false } },
        },
      })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
      const made = (Array.isArray(result) ? result : [result]).flatMap((each) => each.output).filter((file) => file.type === 'chunk');
      if (made.length !== 1) throw new Error(`mergeEntryChunks: ${made.length} chunks made, one expected`);
      // a leading hint comment of the entry (compile it eagerly: decision 0003) stays the file's first line
      const hint = /^\/\/# [^\n]*\n/.exec(entry.code)?.[0] ?? '';
      writeFileSync(join(dir, entry.fileName), hint + made[0]!.code);
      for (const chunk of merged) rmSync(join(dir, chunk.fileName));

      const byFile = new Map(merged.map((chunk, index) => [chunk.fileName, index]));
      for (const chunk of chunks) {
        if (chunk === entry || byFile.has(chunk.fileName)) continue;
        const path = join(dir, chunk.fileName);
        const code = readFileSync(path, 'utf8');
        let rewritten = code.replace(/import\s*(\{[^}]*\})?\s*(?:from\s*)?"\.\/([^"]+)"/g, (whole, names: string | undefined, file: string) => {
          const index = byFile.get(file);
          if (index === undefined) return whole;
          const renamed = (names ?? '{}')
            .slice(1, -1)
            .split(',')
            .map((part) => part.trim())
            .filter(Boolean)
            .map((part) => {
              const [imported, local = imported] = part.split(/\s+as\s+/);
              return `${prefix(index)}${imported} as ${local}`;
            });
          return `import{${renamed.join(',')}}from"./${entry.fileName}"`;
        });
        rewritten = oneImportOf(rewritten, entry.fileName);
        const left = merged.find((other) => rewritten.includes(other.fileName));
        if (left) throw new Error(`mergeEntryChunks: ${chunk.fileName} still names ${left.fileName} in a way this does not rewrite`);
        if (rewritten !== code) writeFileSync(path, rewritten);
      }
    },
  };
}

/** The chunks an entry imports statically, directly or through each other. */
function staticChunks(entry: Rolldown.OutputChunk, bundle: Rolldown.OutputBundle): Rolldown.OutputChunk[] {
  const found = new Map<string, Rolldown.OutputChunk>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    for (const file of chunk.imports) {
      const next = bundle[file];
      if (next?.type !== 'chunk' || found.has(file)) continue;
      found.set(file, next);
      visit(next);
    }
  };
  visit(entry);
  return [...found.values()];
}

/** A chunk's imports from one file, made one statement (the rewrite above may leave it two). */
function oneImportOf(code: string, file: string): string {
  const pattern = new RegExp(`import\\{([^}]*)\\}from"\\./${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}";?`, 'g');
  const found = [...code.matchAll(pattern)];
  if (found.length < 2) return code;
  const names = found.flatMap((match) =>
    (match[1] ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );
  let first = true;
  return code.replace(pattern, () => {
    if (!first) return '';
    first = false;
    return `import{${[...new Set(names)].join(',')}}from"./${file}";`;
  });
}
