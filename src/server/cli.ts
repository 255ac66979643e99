import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings, SettingError } from './settings.js';
import { helpText } from './settings-help.js';
import { operatorLine, startServer } from './server.js';
import { consoleAsOperatorLog } from './console-lines.js';

/** `esign-proxy`: reads its settings, serves until SIGTERM (or SIGINT), then finishes what is in flight. */
async function main(args: string[]): Promise<void> {
  if (args.includes('--help')) {
    process.stdout.write(helpText());
    return;
  }
  consoleAsOperatorLog((line) => process.stderr.write(`${line}\n`));
  let settings;
  try {
    settings = readSettings(args, process.env);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    process.stderr.write(`${operatorLine('error', `esign-proxy: ${error.message}`, { code: 'bad-setting' })}\n`);
    process.exitCode = 2;
    return;
  }
  // the package's dist/cdn/ beside this file's folder, or a cdn/ folder beside this file (the
  // standalone file copied with it); a path, not new URL(): a bundler would take that for an asset
  const here = dirname(fileURLToPath(import.meta.url));
  const widgetDir = [join(here, '..', 'cdn'), join(here, 'cdn')].find((dir) => existsSync(join(dir, 'esign-identify.js'))) ?? null;
  const server = await startServer(settings, {
    event: (line) => process.stdout.write(`${line}\n`),
    log: (line) => process.stderr.write(`${line}\n`),
    widgetDir,
  });
  process.stderr.write(`${operatorLine('info', `esign-proxy listening on ${server.url}${settings.prefix}/`, { url: `${server.url}${settings.prefix}/` })}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`${operatorLine('info', `esign-proxy: ${signal}, finishing the requests in flight`)}\n`);
    void server.close().then(() => {
      process.stderr.write(`${operatorLine('info', 'esign-proxy: stopped')}\n`);
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  followLauncher(stop);
}

/**
 * Started by `npx esign-proxy` (or an npm script), this process is npm's child: a SIGTERM to npm
 * ends npm without passing it on, and this server would keep the port. So, when npm launched it,
 * the server stops as its launcher goes (its parent changes), as after a SIGTERM.
 */
function followLauncher(stop: (signal: string) => void): void {
  if (!process.env['npm_execpath'] && !process.env['npm_command']) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('its launcher (npm) ended');
  }, 500).unref();
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${operatorLine('error', `esign-proxy: ${error instanceof Error ? error.message : String(error)}`)}\n`);
  process.exit(1);
});
