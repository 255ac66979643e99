import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The sandbox's probe mode, switched on only by `esign-sandbox check-proxy`: it records every
 * request that reaches the service side, and can answer the next requests as a hostile or broken
 * service would, to see whether a host's proxy lets the access token through.
 */
export type HostileAnswer = 'echo-plain' | 'echo-escaped' | 'token-header' | 'redirect';

export interface ReachedRequest {
  method: string;
  path: string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export class Probe {
  readonly reached: ReachedRequest[] = [];
  /** What a proxy's result hook reported (ESIGN_CHECK_HOOK_URL): when each run began and ended, by session token. */
  readonly hookMarks: { token: string; at: 'start' | 'end'; when: number }[] = [];
  /** Sessions whose result the check's site turns away: the hook's report of their run is answered 409. */
  readonly refuseResults = new Set<string>();
  /** Requests that followed a redirect to the trap. */
  trapped = 0;
  #refuseThis = false;
  #hostile: HostileAnswer | null = null;
  /** Parts of a path whose next request the service side takes and never answers. */
  readonly #silentFor: string[] = [];
  /** The requests held unanswered, each with when it came and when the proxy let go of it. */
  readonly held: { path: string; came: number; letGo: number | null }[] = [];

  /** The next request whose path holds `part` is taken and never answered, as a service that hangs. */
  answerNothingTo(part: string): void {
    this.#silentFor.push(part);
  }

  constructor(readonly accessToken: string) {}

  /** Answers every following request this way until `answerNormally()`. */
  answerHostile(mode: HostileAnswer): void {
    this.#hostile = mode;
  }

  answerNormally(): void {
    this.#hostile = null;
  }

  record(req: IncomingMessage, body: Buffer): void {
    if (req.url === '/__probe/hook') {
      // a result hook's report, not a request of the service's
      try {
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- each field is checked below before use
        const mark = JSON.parse(body.toString('utf8')) as { token?: unknown; at?: unknown };
        if (typeof mark.token === 'string' && (mark.at === 'start' || mark.at === 'end')) {
          this.hookMarks.push({ token: mark.token, at: mark.at, when: Date.now() });
          this.#refuseThis = mark.at === 'start' && this.refuseResults.has(mark.token);
        }
      } catch {
        // not a report: nothing to keep
      }
      return;
    }
    this.reached.push({ method: req.method ?? '', path: req.url ?? '', body: body.toString('utf8'), headers: req.headers });
  }

  /** True when the request was answered here (the trap or a hostile answer). */
  answer(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.url === '/__probe/hook') {
      res.writeHead(this.#refuseThis ? 409 : 204).end();
      this.#refuseThis = false;
      return true;
    }
    if (req.url?.startsWith('/__probe/trap')) {
      this.trapped++;
      res.writeHead(200, { 'content-type': 'application/json' }).end(`{"status":"ok","trapped":${JSON.stringify(this.accessToken)}}`);
      return true;
    }
    const silent = this.#silentFor.findIndex((part) => req.url?.includes(part));
    if (silent >= 0) {
      this.#silentFor.splice(silent, 1);
      const hold = { path: req.url ?? '', came: Date.now(), letGo: null as number | null };
      this.held.push(hold);
      // the proxy's side of the connection going is it letting go: nothing is ever written here
      res.on('close', () => (hold.letGo = Date.now()));
      return true;
    }
    const mode = this.#hostile;
    if (!mode) return false;
    const token = this.accessToken;
    const escaped = [...token].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const session = '{"status":"ok","token":"0b0e0000-0000-4000-8000-0000000000aa","control_code":"1234"';
    if (mode === 'echo-plain') res.writeHead(200, { 'content-type': 'application/json' }).end(`${session},"echo":"you sent ${token}"}`);
    else if (mode === 'echo-escaped') res.writeHead(200, { 'content-type': 'application/json' }).end(`${session},"echo":"${escaped}","${escaped}":true}`);
    else if (mode === 'token-header')
      res.writeHead(200, { 'content-type': 'application/json', 'x-access-token': token, 'set-cookie': `t=${token}` }).end(`${session}}`);
    else res.writeHead(307, { location: `http://${req.headers.host ?? '127.0.0.1'}/__probe/trap` }).end();
    return true;
  }
}
