import { parseArgs } from 'node:util';
import { checkProxy, checkTable, type CheckOptions } from './check.js';

export const CHECK_HELP = `esign-sandbox check-proxy <proxy-url>: checks a host's proxy against the proxy checklist

Starts a sandbox, prints the base URL and access token the proxy must use, waits until the proxy
answers, probes it, and prints a pass/fail table. Exit code 0 only when every rule passes.

  --port <n>             the sandbox's port (default: a free one; fix it so the proxy can be configured first)
  --access-token <t>     the access token the proxy must send (default: a random one)
  --exposes-screening    the proxy passes PEP and sanctions data to the browser on purpose
  --signer <code,country[,phone]>
                         the proxy signs only as this person (its signing gate), a code and its
                         country (LT, LV or EE): signing checks sign as them, and the gate is checked
  --login <code,country>  log in through the proxy first as this sandbox person (Smart-ID), for a proxy
                         whose signing gate reads the host's own session: the signing checks then
                         sign with that browser's cookies, as that person
  --stop-state <command> a shell command that takes the proxy's shared state away (stops its Redis,
                         makes its SQLite file unwritable): the fail-closed row checks the proxy then
                         refuses with 503; without it that row is skipped
  --start-state <command>
                         the shell command that brings the state back
  --events <file>        where the proxy writes its events as JSON lines (the Python and PHP proxies:
                         their error log; a Node host: a file its onEvent appends to): the events row
                         reads what the check made it write; without it that row is skipped
  --state-file <file>    the file the proxy keeps its state in (the PHP proxy's SQLite file): the
                         state-at-rest row reads it after the run for its mode, its folder's and
                         what it holds in clear; without it that row is skipped
  --upstream-timeout <ms>
                         the proxy's time limit for the service's answer, set to a few seconds for
                         the check (at most 25000): the upstream-timeout row has the service hang and
                         looks for the proxy's 504 in time; without it that row is skipped
  --wait <ms>            how long to wait for the proxy to answer (default 60000)

A proxy whose result hook reports to the check is checked for handing results over first: start
it with ESIGN_CHECK_HOOK_URL=http://127.0.0.1:<port>/__probe/hook (its hook POSTs {"token","at":
"start"} before its work and {"token","at":"end"} after it; ESIGN_CHECK_HOOK_MS=3000 makes it slow,
past the patience of the slow-hook row's polls). The Python and PHP proxies do this when the
variable is set; without it those rows are skipped.
  --json                 print the result as JSON (for CI)`;

/** `--signer code,country[,phone]`, or null when it names no country: a person is a country and a code. */
function signerOf(given: string): NonNullable<CheckOptions['signer']> | null {
  const [code = '', country = '', phone] = given.split(',').map((part) => part.trim());
  const upper = country.toUpperCase();
  if (!code || (upper !== 'LT' && upper !== 'LV' && upper !== 'EE')) return null;
  return { code, country: upper, ...(phone ? { phone } : {}) };
}

export async function runCheckProxy(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      'access-token': { type: 'string' },
      'exposes-screening': { type: 'boolean', default: false },
      signer: { type: 'string' },
      'stop-state': { type: 'string' },
      login: { type: 'string' },
      'start-state': { type: 'string' },
      events: { type: 'string' },
      'state-file': { type: 'string' },
      wait: { type: 'string' },
      'upstream-timeout': { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const proxyUrl = positionals[0];
  if (values.help || !proxyUrl || !URL.canParse(proxyUrl)) {
    console.log(CHECK_HELP);
    return values.help ? 0 : 2;
  }
  const signer = values.signer ? signerOf(values.signer) : undefined;
  if (signer === null) {
    console.error("--signer needs the person's code and country (LT, LV or EE), e.g. --signer 40504040001,EE: the same digits in two countries are two people");
    return 2;
  }
  const login = values.login ? signerOf(values.login) : undefined;
  if (login === null) {
    console.error("--login needs a sandbox person's code and country (LT, LV or EE), e.g. --login 30303039914,LT");
    return 2;
  }
  const upstreamTimeoutMs = values['upstream-timeout'] === undefined ? undefined : Number(values['upstream-timeout']);
  if (upstreamTimeoutMs !== undefined && !(Number.isInteger(upstreamTimeoutMs) && upstreamTimeoutMs >= 100 && upstreamTimeoutMs <= 25_000)) {
    console.error("--upstream-timeout is the proxy's time limit for the service in whole milliseconds, from 100 to 25000 (set it short for the check)");
    return 2;
  }
  const log = values.json ? (line: string) => console.error(line) : (line: string) => console.log(line);
  const { rows } = await checkProxy({
    proxyUrl,
    ...(values.port ? { port: Number(values.port) } : {}),
    ...(values['access-token'] ? { accessToken: values['access-token'] } : {}),
    exposesScreening: values['exposes-screening'],
    ...(signer ? { signer } : {}),
    ...(login ? { login: { code: login.code, country: login.country } } : {}),
    ...(values['stop-state'] ? { stopState: values['stop-state'] } : {}),
    ...(values['start-state'] ? { startState: values['start-state'] } : {}),
    ...(values.events ? { events: values.events } : {}),
    ...(values['state-file'] ? { stateFile: values['state-file'] } : {}),
    ...(values.wait ? { waitMs: Number(values.wait) } : {}),
    ...(upstreamTimeoutMs ? { upstreamTimeoutMs } : {}),
    onReady: ({ url, accessToken }) => {
      log(`sandbox for the proxy: base URL ${url}  access token ${accessToken}`);
      log(`waiting for the proxy at ${proxyUrl} …`);
    },
  });
  if (values.json) console.log(JSON.stringify({ passed: rows.every((row) => row.ok), rows }, null, 2));
  else console.log(checkTable(rows));
  return rows.every((row) => row.ok) ? 0 : 1;
}
