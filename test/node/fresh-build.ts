import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The sources the built esign-proxy (dist/server/cli.js) is made of. */
const SERVER_SOURCES = ['src/server', 'src/proxy', 'src/protocol'];
export const BUILT_SERVER = 'dist/server/cli.js';

function newestIn(dir: string): { path: string; mtimeMs: number } | null {
  let newest: { path: string; mtimeMs: number } | null = null;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const found = entry.isDirectory() ? newestIn(path) : entry.name.endsWith('.ts') ? { path, mtimeMs: statSync(path).mtimeMs } : null;
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

/**
 * Why the built esign-proxy cannot be what the tests try, or null when it can: the tests run the
 * bin as a host runs it (dist/), so a source changed after the last build would be tested stale.
 */
export function staleBuild(root: string): string | null {
  let built: number;
  try {
    built = statSync(join(root, BUILT_SERVER)).mtimeMs;
  } catch {
    return `esign-proxy's tests run the built bin (${BUILT_SERVER}), and there is none: run npm run build first (npm test does)`;
  }
  for (const dir of SERVER_SOURCES) {
    const newest = newestIn(join(root, dir));
    if (newest && newest.mtimeMs > built)
      return `esign-proxy's tests run the built bin (${BUILT_SERVER}), and ${relative(root, newest.path)} changed after it was built: run npm run build first (npm test does)`;
  }
  return null;
}
