import { proxyError } from '../errors.js';
import { isAllowedOrigin, pageSchemes } from '../origin.js';
import type { Step } from './exchange.js';

/** A header's value as a log line may quote it: short, and no line breaks or control characters a browser could smuggle in. */
const quoted = (value: string | null) => (value === null ? 'none' : JSON.stringify(value.slice(0, 200)));

/**
 * Origin: a request from a page of another site is refused (`cross-site`), whatever it asks. The
 * first such refusal is said in the log with what the proxy saw: behind a reverse proxy that does
 * not pass the Host on, or with TLS ended in front, the host's own pages are refused so.
 */
/** Where the page's Origin and the Host differ only by the port: a reverse proxy in front dropped it (nginx's `$host`). */
function portDropped(origin: string | null, host: string | null): string | null {
  if (origin === null || host === null || !URL.canParse(origin)) return null;
  const page = new URL(origin);
  return page.port && page.hostname === host.toLowerCase().replace(/:\d+$/, '') && !/:\d+$/.test(host) ? page.port : null;
}

export const origin: Step = ({ request }, { options, hint }) => {
  const schemes = pageSchemes(options.publicScheme, request.secure, request.host);
  if (isAllowedOrigin(request.header, request.host, options.allowedOrigins ?? [], schemes)) return;
  const port = portDropped(request.header('origin'), request.host);
  const advice = port
    ? `the page's origin has port ${port} and the Host has none: the reverse proxy in front dropped the port. nginx: proxy_set_header Host $http_host (not $host, which has no port)`
    : "a reverse proxy in front must pass the browser's Host on, with its port (nginx: proxy_set_header Host $http_host), and publicScheme: 'https' when TLS ends before this server; a page of another site of yours goes into allowedOrigins";
  hint(
    'cross-site',
    `[esign-proxy] refused a request as cross-site: Origin ${quoted(request.header('origin'))}, Sec-Fetch-Site ${quoted(request.header('sec-fetch-site'))}, ` +
      `Host ${quoted(request.host)}, over ${request.secure ? 'https' : 'http'} (pages taken to be ${schemes.join(' or ')}). If that page is your own site: ${advice}. ` +
      '(Said once; every refusal is a refused event.)',
  );
  return proxyError('cross-site');
};
