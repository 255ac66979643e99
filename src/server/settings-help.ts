import { SETTING_KEYS as KEYS, SETTINGS } from './setting-declarations.js';

/* The settings' words, from their declarations: `esign-proxy --help` and the docs' table. */

export function helpText(): string {
  const lines = KEYS.map((key) => {
    const { env, flag, takes, what } = SETTINGS[key];
    return `  ${env.padEnd(30)}${flag} <${takes}>\n      ${what}`;
  });
  return `esign-proxy: the esign-elements proxy as a server of its own, for a site on any stack.

It serves the service's operations under the prefix with every rule of the proxy (the token kept
here, the allow-list, the visitor binding, the limits, the result checked), writes one JSON line per
event on stdout, answers GET /healthz (alive) and GET /readyz (its state reachable), and on SIGTERM
finishes the requests in flight and stops. Settings, by environment variable or flag (the flag wins):

${lines.join('\n')}
`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/</g, '&lt;');

/** The docs' table of every setting, between its markers (a test holds the docs to it). */
export function settingsTable(): string {
  const rows = KEYS.map((key) => {
    const { env, flag, takes, what } = SETTINGS[key];
    return `| \`${env}\` | \`${flag}\` | ${cell(takes)} | ${cell(what)} |`;
  });
  return [
    '<!-- settings:start -->',
    '<!-- made from src/server/setting-declarations.ts by npm run docs -->',
    '| variable | flag | takes | what it does, its default |',
    '|---|---|---|---|',
    ...rows,
    '<!-- settings:end -->',
  ].join('\n');
}
