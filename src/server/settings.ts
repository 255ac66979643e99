import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import { isLoopback, named, Problem, SETTING_KEYS as KEYS, SETTINGS, type SettingKey, type SettingValues } from './setting-declarations.js';

export { isLoopback, MIN_CLIENT_SECRET } from './setting-declarations.js';

/*
 * `esign-proxy`'s settings read: each from its flag (`--port 8080`, `--port=8080`), else its
 * variable, by its declaration (setting-declarations.ts); then the ones that go together checked.
 * A bad setting stops the server at start with a sentence that names it.
 */

/** The OpenID Provider's settings: read into `oidc` together. */
type OidcKey = 'oidcIssuer' | 'oidcClients' | 'oidcKeys' | 'oidcSubjectSecret' | 'oidcCodeLifetimeS' | 'oidcStylesheet';

/** The settings as the server takes them: each declared one's value, and those made from several. */
export type ServerSettings = Omit<SettingValues, OidcKey | 'forwardCookies' | 'redisPrefix'> & {
  /** The browser's cookies the signer question carries, by name; empty: every one but the proxy's own. */
  forwardCookies: string[];
  /** What every Redis key of this site begins with. */
  redisPrefix: string;
  /** esign-proxy as an OpenID Provider: its issuer, its clients and its signing keys (read at start). */
  oidc: OidcSettings | undefined;
};

export interface OidcSettings {
  /** The issuer URL, under the prefix: `https://site.example/esign/oidc`. */
  issuer: string;
  /** The clients' registration metadata, as the file holds it (the provider library checks each). */
  clients: Record<string, unknown>[];
  /** The private JWKS every node signs with; null: a key made at start (development only). */
  keys: { keys: Record<string, unknown>[] } | null;
  /** The key of the `sub` digest (a person's country and code): stable for as long as the site keeps it. */
  subjectSecret: string;
  /** Where `sub`'s key came from: a warning is said when it is not a setting of its own. */
  subjectSecretFrom: 'setting' | 'visitor secret' | 'access token';
  /** A stylesheet of the site's look for the hosted login page (custom properties and parts), as text. */
  stylesheet: string | null;
  /** How long an authorization code can be redeemed, in seconds (60 unless set). */
  codeLifetimeS: number;
}

export class SettingError extends Error {}

const BY_FLAG = new Map(KEYS.map((key) => [SETTINGS[key].flag.slice(2), key]));

/** The flags' texts by setting, through Node's own parser; a flag that is none, or one without its value, refused. */
function flagTexts(args: readonly string[]): Partial<Record<SettingKey, string>> {
  const options = Object.fromEntries([...BY_FLAG.keys(), 'help'].map((name) => [name, { type: name === 'help' ? ('boolean' as const) : ('string' as const) }]));
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const texts: Partial<Record<SettingKey, string>> = {};
  for (const token of tokens) {
    if (token.kind === 'positional')
      throw new SettingError(`${JSON.stringify(token.value)} is no setting of esign-proxy: each is a flag with its value, --port 8080 (see --help)`);
    if (token.kind !== 'option' || token.name === 'help') continue;
    const key = BY_FLAG.get(token.name);
    if (!key || !token.rawName.startsWith('--')) throw new SettingError(`${token.rawName} is no setting of esign-proxy (see --help)`);
    if (token.value === undefined)
      throw new SettingError(`${named(key)} needs a value: ${token.rawName} <${SETTINGS[key].takes}> (or ${token.rawName}=<value>)`);
    texts[key] = token.value;
  }
  return texts;
}

/** Every setting's value by its parser, a Problem said as a sentence naming the setting. */
function parsedValues(args: readonly string[], env: NodeJS.ProcessEnv): SettingValues {
  const flags = flagTexts(args);
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const key of KEYS) {
    try {
      values[key] = SETTINGS[key].parse(flags[key] ?? env[SETTINGS[key].env]);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      throw new SettingError(`${named(key)}${error.message.startsWith(':') ? '' : ' '}${error.message}`);
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the loop gave every key its parser's value
  return values as SettingValues;
}

/** The checks of settings that go together: each a sentence naming both, or null. */
const TOGETHER: ((values: SettingValues) => string | null)[] = [
  ({ redisUrl, redisClusterUrls }) => (redisUrl && redisClusterUrls.length ? `${named('redisUrl')} and ${named('redisClusterUrls')}: set one of them` : null),
  ({ webhookUrl, signerUrl, webhookKeys }) =>
    (webhookUrl || signerUrl) && !webhookKeys.length
      ? `${named('webhookKeys')} is required with ${webhookUrl ? SETTINGS.webhookUrl.env : SETTINGS.signerUrl.env}: the deliveries are signed`
      : null,
  ({ webhookUrl, signerUrl, allowPlainHttp }) => {
    if (allowPlainHttp) return null;
    const plain = (url: string | undefined) => url !== undefined && new URL(url).protocol === 'http:' && !isLoopback(new URL(url).hostname);
    const key = plain(webhookUrl) ? 'webhookUrl' : plain(signerUrl) ? 'signerUrl' : null;
    return key
      ? `${named(key)} is plain http:// to another machine: a delivery and the signer question (the browser's cookies) would cross the network readable. Use https://, an address on this machine, or set ${SETTINGS.allowPlainHttp.env}=1 on a network you trust`
      : null;
  },
  ({ oidcIssuer, oidcClients }) =>
    oidcIssuer && !oidcClients ? `${named('oidcClients')} is required with ${named('oidcIssuer')}: a JSON file of the clients` : null,
  ({ oidcIssuer, prefix }) =>
    oidcIssuer && !new URL(oidcIssuer).pathname.startsWith(`${prefix}/`)
      ? `${named('oidcIssuer')} must be under the prefix, e.g. https://site.example${prefix}/oidc (nginx sends ${prefix}/ here), not ${JSON.stringify(oidcIssuer)}`
      : null,
  // esign-proxy speaks plain http: an https:// issuer means TLS ends in front, and the provider must
  // know it (the login's last step, the cookies' Secure flag). No header is taken for it.
  ({ oidcIssuer, publicScheme }) => {
    if (!oidcIssuer) return null;
    const https = new URL(oidcIssuer).protocol === 'https:';
    if (https && publicScheme !== 'https')
      return `${named('oidcIssuer')} is https://, and esign-proxy itself serves plain http behind your TLS front: set ${named('publicScheme')} to https, so that the login's last step goes to https:// and every cookie is Secure`;
    if (!https && publicScheme === 'https')
      return `${named('oidcIssuer')} is http:// and ${named('publicScheme')} is https: the issuer is the address browsers and clients reach, so give it as https://`;
    return null;
  },
];

function oidcOf(values: SettingValues): OidcSettings | undefined {
  const { oidcIssuer: issuer, oidcClients: clients, oidcSubjectSecret: own, visitorSecret, accessToken } = values;
  if (!issuer || !clients) return undefined;
  return {
    issuer,
    clients,
    keys: values.oidcKeys,
    subjectSecret: own ?? visitorSecret ?? accessToken,
    subjectSecretFrom: own ? 'setting' : visitorSecret ? 'visitor secret' : 'access token',
    stylesheet: values.oidcStylesheet,
    codeLifetimeS: values.oidcCodeLifetimeS,
  };
}

/** Reads and checks the settings; throws SettingError naming the one that is wrong. */
export function readSettings(args: readonly string[], env: NodeJS.ProcessEnv): ServerSettings {
  const values = parsedValues(args, env);
  for (const check of TOGETHER) {
    const problem = check(values);
    if (problem) throw new SettingError(problem);
  }
  const {
    oidcIssuer: _issuer,
    oidcClients: _clients,
    oidcKeys: _keys,
    oidcSubjectSecret: _subject,
    oidcCodeLifetimeS: _lifetime,
    oidcStylesheet: _look,
    ...plain
  } = values;
  return {
    ...plain,
    forwardCookies: values.forwardCookies ?? (values.visitorCookie ? [values.visitorCookie] : []),
    redisPrefix: values.redisPrefix ?? `esign-proxy:${createHash('sha256').update(values.accessToken).digest('hex').slice(0, 12)}:`,
    oidc: oidcOf(values),
  };
}
