import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { helpText, readSettings, SettingError } from './settings.js';
import { startServer } from './server.js';

/** `esign-proxy`: reads its settings, serves until SIGTERM (or SIGINT), then finishes what is in flight. */
async function main(args: string[]): Promise<void> {
  if (args.includes('--help')) {
    process.stdout.write(helpText());
    return;
  }
  let settings;
  try {
    settings = readSettings(args, process.env);
  } catch (error) {
    if (!(error instanceof SettingError)) throw error;
    process.stderr.write(`esign-proxy: ${error.message}\n`);
    process.exitCode = 2;
    return;
  }
  // the package's dist/cdn/, beside this file's folder (a path, not new URL(): a bundler would take that for an asset)
  const widgetDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'cdn');
  const server = await startServer(settings, {
    event: (line) => process.stdout.write(`${line}\n`),
    log: (line) => process.stderr.write(`${line}\n`),
    widgetDir: existsSync(widgetDir) ? widgetDir : null,
  });
  process.stderr.write(`esign-proxy listening on ${server.url}${settings.prefix}/\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`esign-proxy: ${signal}, finishing the requests in flight\n`);
    void server.close().then(() => {
      process.stderr.write('esign-proxy: stopped\n');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`esign-proxy: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
