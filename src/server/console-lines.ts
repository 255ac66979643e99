import { operatorLine } from './server.js';

/*
 * The esign-proxy process's console is its operator log: a line any code of the process says with
 * console (oidc-provider says its notices so, at load and while it answers) is one JSON line on
 * stderr, at the level of the call that said it. Set once as the process starts, by the command
 * that owns the process; a library function of the proxy never touches console.
 */

type Method = 'log' | 'info' | 'warn' | 'error' | 'debug';
const LEVEL = { log: 'info', info: 'info', debug: 'info', warn: 'warn', error: 'error' } as const;

/** The words esign-proxy says for oidc-provider's notice of a runtime it does not support. */
const unsupportedRuntime = () =>
  `the OpenID Provider's library (oidc-provider 9) is supported by its authors on Node.js 22 LTS and later, and this is Node.js ${process.version}: it works here (esign-proxy's tests run it on Node.js 20), but give it Node.js 22 or later in production`;

/** A console call as the operator's line: oidc-provider's own (its notices begin with its name) coded as the library's. */
export function consoleLine(method: Method, args: readonly unknown[]): string {
  const said = args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' ');
  const level = LEVEL[method];
  if (!said.startsWith('oidc-provider ')) return operatorLine(level, said, { code: 'console' });
  if (said.includes('Unsupported runtime')) return operatorLine(level, unsupportedRuntime(), { code: 'oidc-unsupported-runtime' });
  return operatorLine(level, said, { code: 'oidc-library' });
}

/** Makes this process's console write operator lines through `write`. */
export function consoleAsOperatorLog(write: (line: string) => void): void {
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) console[method] = (...args: unknown[]) => write(consoleLine(method, args));
}
