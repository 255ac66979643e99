// esign-proxy as one file with its own dependencies (the Redis client included): what an operator
// runs with nothing but `node`, beside a site on any stack (docs/operating-the-proxy.md).
import { build } from 'esbuild';

await build({
  entryPoints: ['src/server/cli.ts'],
  outfile: 'dist/standalone/esign-proxy.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  minify: true,
  legalComments: 'linked',
  // the bundled code's own require() of Node's built-ins
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __esignRequire } from 'node:module'; const require = __esignRequire(import.meta.url);" },
  logLevel: 'warning',
});
console.log('dist/standalone/esign-proxy.mjs');
