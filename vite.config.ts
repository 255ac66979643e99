import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { defineConfig, type UserConfig } from 'vite';
import { minifyLitTemplates } from './scripts/minify-lit-templates.js';

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
/** Every runtime dependency stays an import in the library build (Lit is bundled only into the script-tag files). */
const DEPENDENCIES = [...Object.keys(pkg.dependencies), '@lit/', '@lit-labs/'];
/** One entry per element: `src/define/<name>.ts` registers it and the elements it is made of. */
const ELEMENT_ENTRIES = readdirSync(new URL('./src/define/', import.meta.url))
  .filter((file) => file.endsWith('.ts'))
  .map((file) => file.slice(0, -3));

const SCRIPT_OUTPUT = { minify: true, comments: false } as const;

/**
 * `vite build`: the unbundled ESM of every entry point (types come from tsc).
 * `vite build --mode cdn`: one script-tag file with Lit and every element inside.
 * `vite build --mode cdn-elements`: a script-tag file per element (`esign-identify.js`, …) that share
 * Lit and the common code through chunks beside them.
 * In both, every language is a small file of its own, loaded on first use.
 */
export default defineConfig(({ mode }): UserConfig => {
  if (mode === 'cdn') {
    return {
      plugins: [minifyLitTemplates()],
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: true,
        lib: { entry: 'src/cdn.ts', formats: ['es'], fileName: () => 'esign-elements.js' },
        rolldownOptions: { output: { ...SCRIPT_OUTPUT, chunkFileNames: 'esign-elements-[name]-[hash].js' } },
      },
    };
  }
  if (mode === 'cdn-elements') {
    return {
      plugins: [minifyLitTemplates()],
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: false,
        lib: {
          entry: Object.fromEntries(ELEMENT_ENTRIES.map((name) => [`esign-${name}`, `src/define/${name}.ts`])),
          formats: ['es'],
          fileName: (_, name) => `${name}.js`,
        },
        rolldownOptions: { output: { ...SCRIPT_OUTPUT, chunkFileNames: 'shared/[name]-[hash].js' } },
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
          ...Object.fromEntries(ELEMENT_ENTRIES.map((name) => [`define/${name}`, `src/define/${name}.ts`])),
        },
        formats: ['es'],
      },
      rolldownOptions: {
        external: (id: string) => NODE_BUILTINS.has(id) || DEPENDENCIES.some((dep) => id === dep || id.startsWith(dep.endsWith('/') ? dep : `${dep}/`)),
        output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
      },
    },
  };
});
