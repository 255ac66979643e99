import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import { minifyLitTemplates } from './scripts/minify-lit-templates.js';

const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
/** Every runtime dependency stays an import in the library build (Lit is bundled only into the script-tag file). */
const DEPENDENCIES = [...Object.keys(pkg.dependencies), '@lit/', '@lit-labs/'];

/**
 * `vite build`: the unbundled ESM of every entry point (types come from tsc).
 * `vite build --mode cdn`: the one script-tag file with Lit inside; languages other than
 * English are separate files beside it, loaded on first use.
 */
export default defineConfig(({ mode }) =>
  mode === 'cdn'
    ? {
        plugins: [minifyLitTemplates()],
        build: {
          outDir: 'dist/cdn',
          emptyOutDir: true,
          lib: { entry: 'src/cdn.ts', formats: ['es'], fileName: () => 'esign-elements.js' },
          rolldownOptions: {
            output: { minify: true, comments: false, chunkFileNames: 'esign-elements-[name]-[hash].js' },
          },
        },
      }
    : {
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
            },
            formats: ['es'],
          },
          rolldownOptions: {
            external: (id: string) => NODE_BUILTINS.has(id) || DEPENDENCIES.some((dep) => id === dep || id.startsWith(dep.endsWith('/') ? dep : `${dep}/`)),
            output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
          },
        },
      },
);
