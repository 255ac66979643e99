import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { mergeEntryChunks } from './scripts/merge-entry-chunks.js';
import { minifyLitTemplates } from './scripts/minify-lit-templates.js';
import { compileLitTemplates } from './scripts/compile-lit-templates.js';
import { REGISTRY } from './src/registry.js';

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
/** Every runtime and peer dependency stays an import in the library build (Lit is bundled only into the script-tag files). */
const DEPENDENCIES = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies), '@lit/', '@lit-labs/', 'esign-sandbox', 'vite'];
/** One entry per element: `src/elements/<name>/define.ts` registers it and the elements it is made of. */
const ELEMENT_ENTRIES = REGISTRY.map((entry) => entry.name);

/**
 * A language part keeps its name without a hash (`esign-elements-lt-session.js`), so a page can
 * name it in a `<link rel="modulepreload">` beside the entry file and get both in one round trip;
 * the CDN's versioned path keeps caches apart. Every other chunk is named by its content.
 */
const LANGUAGE_PART = /^(lt|en|lv|et|ru)-(form|session|documents)$/;
/** An element's define entry, loaded as a chunk, is named by its element (`esign-elements-status-<hash>.js`). */
const DEFINE_ENTRY = /[\\/]elements[\\/]([a-z-]+)[\\/]define\.ts$/;
const chunkFileNames = (chunk: { name: string; facadeModuleId?: string | null; moduleIds?: string[] }): string => {
  if (LANGUAGE_PART.test(chunk.name)) return 'esign-elements-[name].js';
  // a define entry that another element's class also imports may be no chunk's facade: its chunk is still the element's
  const entries = [chunk.facadeModuleId ?? '', ...(chunk.moduleIds ?? [])].map((id) => DEFINE_ENTRY.exec(id)?.[1]).filter(Boolean);
  const element = DEFINE_ENTRY.exec(chunk.facadeModuleId ?? '')?.[1] ?? (new Set(entries).size === 1 ? entries[0] : undefined);
  return element ? `esign-elements-${element}-[hash].js` : 'esign-elements-[name]-[hash].js';
};
const SCRIPT_OUTPUT = { minify: true, comments: false, chunkFileNames } as const;
/**
 * An element's own script-tag file runs whole as the page loads (Lit, then the element's first
 * render): this comment lets Chromium (136 and later) compile its functions eagerly on the thread
 * that streams the file in, instead of one by one on the main thread as each is first called.
 * See docs/decisions/0003.
 * Not for the all-in-one file (a page draws few of its elements) or chunks loaded later.
 */
/** The script-tag files' templates compiled (scripts/compile-lit-templates.ts); ESIGN_COMPILE_TEMPLATES=0 leaves them to the browser, to compare. */
const templatesAtBuild = (): Plugin[] => (process.env['ESIGN_COMPILE_TEMPLATES'] === '0' ? [] : [compileLitTemplates()]);
const compileHint: Plugin = {
  name: 'esign-compile-hint',
  generateBundle(_options, bundle) {
    for (const file of Object.values(bundle)) if (file.type === 'chunk' && file.isEntry) file.code = `//# allFunctionsCalledOnLoad\n${file.code}`;
  },
};
/**
 * PDF.js is never bundled with the elements: the preview's engine imports it from the file beside
 * it (`esign-elements-pdf.js`, copied with its worker by scripts/copy-pdfjs.mjs), loaded only when
 * a preview is shown, in the package and the script-tag files alike.
 */
const PDFJS = { external: ['pdfjs-dist/legacy/build/pdf.mjs'], paths: { 'pdfjs-dist/legacy/build/pdf.mjs': './esign-elements-pdf.js' } } as const;

/**
 * `vite build`: the unbundled ESM of every entry point (types come from tsc).
 * `vite build --mode cdn`: one script-tag file with Lit and the login inside, which loads every
 * other element when it appears (its chunks import Lit and the rest from it).
 * `ESIGN_ELEMENT=identify vite build --mode cdn-element`: the script-tag file of one element
 * (`esign-identify.js`), whole in itself, for pages that use that element alone.
 * `vite build --mode cdn-client`: the client's script-tag file (`esign-client.js`), whole in itself.
 * In both, every language is a small file of its own, loaded on first use.
 */
export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'cdn') {
    return {
      plugins: [minifyLitTemplates(), ...templatesAtBuild(), mergeEntryChunks()],
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: true,
        lib: { entry: 'src/cdn.ts', formats: ['es'], fileName: () => 'esign-elements.js' },
        rolldownOptions: { external: [...PDFJS.external], preserveEntrySignatures: 'allow-extension', output: { ...SCRIPT_OUTPUT, paths: PDFJS.paths } },
      },
    };
  }
  if (mode === 'cdn-client') {
    // the client for a page that talks to the proxy itself (the all-in-one file exports the rest):
    // one file, whole in itself
    return {
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: false,
        lib: { entry: 'src/client/script-tag.ts', formats: ['es'], fileName: () => 'esign-client.js' },
        rolldownOptions: { output: { minify: true, comments: false } },
      },
    };
  }
  if (mode === 'cdn-element') {
    // one element per run (scripts/build-cdn-elements.mjs runs them all): a file that holds Lit and
    // everything the element needs, and imports nothing but its languages
    const name = process.env['ESIGN_ELEMENT'] ?? '';
    if (!ELEMENT_ENTRIES.includes(name)) throw new Error(`ESIGN_ELEMENT must be one of ${ELEMENT_ENTRIES.join(', ')}`);
    return {
      plugins: [minifyLitTemplates(), ...templatesAtBuild(), compileHint, mergeEntryChunks()],
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: false,
        lib: { entry: `src/elements/${name}/define.ts`, formats: ['es'], fileName: () => `esign-${name}.js` },
        rolldownOptions: {
          external: [...PDFJS.external],
          preserveEntrySignatures: 'allow-extension',
          output: { ...SCRIPT_OUTPUT, paths: PDFJS.paths },
        },
      },
    };
  }
  return {
    plugins: [minifyLitTemplates()],
    build: {
      outDir: 'dist',
      emptyOutDir: false,
      minify: false,
      target: 'es2022',
      lib: {
        entry: {
          index: 'src/index.ts',
          define: 'src/define.ts',
          'client/index': 'src/client/index.ts',
          'proxy/index': 'src/proxy/index.ts',
          'proxy/redis': 'src/proxy/redis.ts',
          'server/cli': 'src/server/cli.ts',
          'react/index': 'src/react/index.ts',
          'react/jsx': 'src/react/jsx.ts',
          'vue/index': 'src/vue/index.ts',
          'vite/index': 'src/vite/index.ts',
          ...Object.fromEntries(ELEMENT_ENTRIES.map((name) => [`elements/${name}/define`, `src/elements/${name}/define.ts`])),
        },
        formats: ['es'],
      },
      rolldownOptions: {
        external: (id: string) =>
          NODE_BUILTINS.has(id) ||
          PDFJS.external.includes(id as (typeof PDFJS.external)[number]) ||
          DEPENDENCIES.some((dep) => id === dep || id.startsWith(dep.endsWith('/') ? dep : `${dep}/`)),
        output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js', paths: PDFJS.paths },
      },
    },
  };
});
