import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { recordOf } from '../service/json.js';
import { request as httpsRequest } from 'node:https';
import type { Probe, ReachedRequest } from './probe.js';

export interface CheckOptions {
  proxyUrl: string;
  /** The sandbox's port (the proxy must point at it). Default: a free one. */
  port?: number;
  /** The access token the proxy must use. Default: a random one. */
  accessToken?: string;
  /** The proxy passes PEP and sanctions data to the browser on purpose. */
  exposesScreening?: boolean;
  /**
   * The person the proxy's signing gate lets sign (its `signer`): signing starts of the checks are
   * for them, and the gate itself is checked.
   */
  signer?: { code: string; country: 'LT' | 'LV' | 'EE'; phone?: string };
  /**
   * A sandbox person (Smart-ID) to log in as through the proxy before the checks: for a proxy whose
   * signing gate reads the host's own session. The checks then sign with that browser's cookies,
   * as that person (the signer, unless `signer` says otherwise).
   */
  login?: { code: string; country: 'LT' | 'LV' | 'EE' };
  /** A shell command that takes the proxy's shared state away (stops Redis, makes the SQLite file unwritable): the fail-closed row runs it. */
  stopState?: string;
  /** A shell command that brings the state back after `stopState`. */
  startState?: string;
  /**
   * The proxy's time limit for the service's answer, ms (set short for the check: a few seconds):
   * the upstream-timeout row has the service hang and looks for the proxy's 504 within it.
   */
  upstreamTimeoutMs?: number;
  /** The file the proxy keeps its state in (the PHP proxy's SQLite file): the state-at-rest row reads it after the run. */
  stateFile?: string;
  /** A file the proxy writes its events to as JSON lines: the events row reads what the check's requests made it write. */
  events?: string;
  /** How long to wait for the proxy to answer at all, ms. Default 60 000. */
  waitMs?: number;
  /** Called once the sandbox runs, with what the proxy must point at. */
  onReady?: (sandbox: { url: string; accessToken: string }) => void | Promise<void>;
}

/** What the proxy answered. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: Record<string, unknown> | null;
}

/** A browser's cookies: what one visitor sends back. */
export class Jar {
  cookies = new Map<string, string>();
  copy(): Jar {
    const jar = new Jar();
    for (const [name, value] of this.cookies) jar.cookies.set(name, value);
    return jar;
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  keep(headers: IncomingHttpHeaders): void {
    for (const line of headers['set-cookie'] ?? []) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq > 0) this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }
}

export interface Send {
  method: string;
  path: string;
  body?: string | undefined;
  /** Default application/json when there is a body; null sends none. */
  contentType?: string | null;
  headers?: Record<string, string>;
  jar?: Jar;
  /** Give the request up (close its connection, as a browser's time limit does) after this long, ms: it then rejects with `GivenUp`. Default 30 000. */
  giveUpAfterMs?: number;
}

/** A request the check gave up on at its own time limit, as a browser does. */
export class GivenUp extends Error {}

/** What every check uses: requests to the proxy as a browser sends them, and what reached the service side. */
export interface Prober {
  options: CheckOptions;
  accessToken: string;
  /** The proxy's base URL. */
  base: URL;
  probe: Probe;
  /** Every answer of the run, for the last check (the token in none of them). */
  answers: { where: string; answer: Answer }[];
  send(spec: Send): Promise<Answer>;
  post(path: string, body: object, jar?: Jar, extra?: Partial<Send>): Promise<Answer>;
  /** The cookies of the browser logged in with `login`, when one did. */
  session: Jar | null;
  /** Where the events file ended as the check began (0 without one). */
  eventsFrom: number;
  /** A jar for a signing start: a copy of the logged-in browser's cookies, or a new visitor's. */
  signingJar(): Jar;
  /** Where the service side's record stands now: pass it to `reachedSince` after a request. */
  mark(): number;
  reachedSince(mark: number): ReachedRequest[];
  /** A request and its answer, for a failure's evidence. */
  show(spec: string, answer: Answer): string;
  wait(ms: number): Promise<void>;
}

export function createProber(options: CheckOptions, accessToken: string, probe: Probe): Prober {
  const base = new URL(options.proxyUrl.replace(/\/+$/, ''));
  const answers: Prober['answers'] = [];

  function send(spec: Send): Promise<Answer> {
    const path = `${base.pathname.replace(/\/+$/, '')}${spec.path}`;
    const headers: Record<string, string | number> = { ...spec.headers };
    if (spec.body !== undefined) {
      headers['content-length'] = Buffer.byteLength(spec.body);
      if (spec.contentType !== null) headers['content-type'] = spec.contentType ?? 'application/json';
    }
    const cookie = spec.jar?.header();
    if (cookie) headers['cookie'] = cookie;
    const request = base.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const req = request({ hostname: base.hostname, port: base.port, method: spec.method, path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          spec.jar?.keep(res.headers);
          let json: Record<string, unknown> | null = null;
          try {
            const parsed: unknown = JSON.parse(text);
            if (!Array.isArray(parsed)) json = recordOf(parsed) ?? json;
          } catch {
            json = null;
          }
          const answer = { status: res.statusCode ?? 0, headers: res.headers, text, json };
          answers.push({ where: `${spec.method} ${spec.path}`, answer });
          resolve(answer);
        });
      });
      const limit = spec.giveUpAfterMs ?? 30_000;
      const giveUp = setTimeout(() => req.destroy(new GivenUp(`no answer in ${limit} ms`)), limit);
      req.on('close', () => clearTimeout(giveUp));
      req.on('error', reject);
      req.end(spec.body);
    });
  }

  const prober: Prober = {
    options,
    accessToken,
    base,
    probe,
    answers,
    session: null,
    eventsFrom: 0,
    // read when called (the login comes after the prober is made); safe to destructure
    signingJar: () => (prober.session ? prober.session.copy() : new Jar()),
    send,
    post: (path, body, jar = new Jar(), extra = {}) => send({ method: 'POST', path, body: JSON.stringify(body), jar, ...extra }),
    mark: () => probe.reached.length,
    reachedSince: (mark) => probe.reached.slice(mark),
    show: (spec, answer) => `${spec} → ${answer.status} ${answer.text.slice(0, 160)}`,
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  return prober;
}

/** One rule of the checklist: its id, what it says, and the probe that shows whether a proxy keeps it. */
export interface Check {
  id: string;
  /** What the rule says (some say how much they tried, known once they ran). */
  rule: string | ((prober: Prober) => string);
  /**
   * Null when the proxy keeps the rule; else the request that showed it does not, and what came
   * back; `skipped` (and why) when the row could check nothing with what it was told.
   */
  run(prober: Prober): Promise<string | null | { failure: string | null; note?: string } | { skipped: string }>;
}
