import { camelCased } from '../../protocol/camel.js';
import { ProxyRefusal, jsonAnswer, proxyError, type ProxyAnswer } from '../errors.js';
import { HandOverTimeout, ResultRefused, handOver as handOverOnce, within } from '../hand-over.js';
import { DOCUMENT_RESULTS, STATUS_OF } from '../operation-kinds.js';
import type { ProxyRequestInfo, ResultToHand, SignedAs } from '../options.js';
import { isCountry } from '../person.js';
import { tokenName, unseal } from '../sealed.js';
import type { Binding, Step, Has } from './exchange.js';
import type { ProxySetup } from './setup.js';
import { WAITING } from './poll-floor.js';
import { keepFinished } from './sessions.js';
import { sealBinding } from './binding.js';
import { mintVisitor } from './visitor.js';
import { isRecord } from '../../protocol/checks.js';

/** A `Set-Cookie` line as a header may carry it: no line break a host's value could smuggle in. */
const cookieLine = (line: unknown) => (typeof line === 'string' && line && !/[\r\n\0]/.test(line) ? [line] : []);

/**
 * Runs onResult within its time limit: a throw or a time-out is the host's failure (500, logged), a
 * `ResultRefused` the host's refusal (logged with its status). Returns the cookies it gave back.
 */
async function runOnResult(setup: ProxySetup, result: ResultToHand, requestId: string): Promise<string[]> {
  const onResult = setup.options.onResult;
  if (!onResult) return [];
  const context = ` for ${result.operation}`;
  const cookies: string[] = [];
  try {
    await within(setup.handOver.timeoutMs, async (signal) => {
      const answer = await setup.askHost('onResult', () => onResult({ ...result, signal }), context);
      if (answer && typeof answer === 'object' && Array.isArray(answer.setCookies)) cookies.push(...answer.setCookies.flatMap(cookieLine));
    });
  } catch (error) {
    if (error instanceof ResultRefused) {
      setup.log(
        'error',
        `[esign-proxy] onResult() refused the result${context}: ${error.message}; the session ends with site-refused [request ${requestId}]`,
        requestId,
      );
      throw error;
    }
    if (!(error instanceof HandOverTimeout)) throw error;
    setup.log('error', `[esign-proxy] onResult() failed${context}: ${error.message} [request ${requestId}]`, requestId);
    throw new ProxyRefusal(proxyError('host-error'), { hook: 'onResult' });
  }
  return cookies;
}

/** The host refused the result: the session (or the document operation) ends here, for this poll and every later one. */
function refused(x: Has<'operation'>, status: number | null): never {
  x.event.outcome = { type: 'finished', outcome: 'site-refused' };
  throw new ProxyRefusal(proxyError('site-refused', status === null ? {} : { site_status: status }));
}

/**
 * Hand over: a result goes to the host (`onResult`) before the browser may see it. A session's
 * only once, when it succeeded (a lease in the store, see hand-over.ts): while it is on its way
 * the browser is told to keep waiting, and every poll after it gets the result with what the
 * host gave that browser (its cookies), or the host's refusal. A document operation's success each time.
 */
export const handOver: Step<'operation' | 'service' | 'visitor' | 'info'> = (x, setup) => {
  if (x.service.value['status'] !== 'ok') return;
  const session = x.binding && STATUS_OF[x.operation.id] ? x.binding : null;
  if (!setup.options.onResult) {
    // nothing to hand over, nothing to wait for: a session's success ends it
    if (session) x.event.outcome = { type: 'finished', outcome: 'ok' };
    return;
  }
  if (session || DOCUMENT_RESULTS.has(x.operation.id)) return handOverResult(x, setup, session);
};

/** `session`: the binding of the session a status poll finished, or null for a document operation. */
async function handOverResult(x: Has<'operation' | 'service' | 'visitor' | 'info'>, setup: ProxySetup, session: Binding | null): Promise<ProxyAnswer | void> {
  const { operation, service, visitor, info } = x;
  const value = service.value;
  if (session) {
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a status operation's path has its token
    const token = operation.params['token'] as string;
    // a login gives the browser a new visitor id of the proxy's own (a host that uses it as its
    // session then never keeps one a browser had before logging in); a host's own session id, by
    // the `visitor` hook, is the host's to rotate
    const rotated = session.kind === 'login' && !setup.options.visitor ? mintVisitor(x.request, setup.options, setup.visitorSecret) : null;
    const result = handed({
      operation: operation.id,
      kind: session.kind,
      channel: session.channel,
      token,
      visitor: (rotated ?? visitor).id,
      raw: value,
      request: info,
      result: camelCased(value),
      ...signerOf(session, setup),
    });
    const name = tokenName(setup.visitorSecret, token);
    const outcome = await handOverOnce(`result:${name}`, setup.handOver, async () => {
      const cookies = await runOnResult(setup, result, x.requestId);
      // a late poll of this browser, with its new id or one sent before the new id arrived, still gets the session's answer
      if (rotated)
        await setup.store.set(
          `bind:${name}`,
          sealBinding(setup.visitorSecret, { ...session, visitor: rotated.key, rotatedFrom: session.visitor }),
          setup.handOver.doneTtlMs,
        );
      else await keepFinished(setup, token, session);
      return rotated?.cookie ? [rotated.cookie, ...cookies] : cookies;
    });
    if (outcome.type === 'still-running') return jsonAnswer(200, WAITING);
    if (outcome.type === 'refused') return refused(x, outcome.status);
    // every answer that tells this browser the session finished carries what the host gave it: one lost on the way loses nothing
    x.hostCookies.push(...outcome.kept.flatMap(cookieLine));
    // the session's end is one event: said by the first answer that carries it (the runner's, where it still waited; else the first to mark it)
    const first = outcome.first ?? (await setup.store.setIfAbsent(`result:${name}:told`, '1', setup.handOver.doneTtlMs));
    if (first) x.event.outcome = { type: 'finished', outcome: 'ok' };
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an upload's answer names its document; String() takes whatever is there
  const documentId = operation.params['documentId'] ?? String((value['document'] as { uuid?: unknown } | undefined)?.uuid ?? '');
  try {
    x.hostCookies.push(
      ...(await runOnResult(
        setup,
        handed({ operation: operation.id, kind: 'document', token: documentId, visitor: visitor.id, result: camelCased(value), raw: value, request: info }),
        x.requestId,
      )),
    );
  } catch (error) {
    if (error instanceof ResultRefused) refused(x, error.status);
    throw error;
  }
}

/** A signing's signer, as its start kept it sealed in the binding. */
function signerOf(session: Binding, setup: ProxySetup): { signer?: SignedAs } {
  const opened = session.signedAs ? unseal(setup.visitorSecret, session.signedAs) : null;
  if (opened === null) return {};
  const value: unknown = JSON.parse(opened);
  if (!isRecord(value)) return {};
  const { country, code, from } = value;
  return isCountry(country) && typeof code === 'string' && (from === 'site' || from === 'start') ? { signer: { country, code, from } } : {};
}

/** A result as built here, before it is read as its operation's. */
interface Handed {
  operation: string;
  kind: string;
  channel?: string;
  token: string;
  visitor: string;
  raw: Record<string, unknown>;
  request: ProxyRequestInfo;
  result: unknown;
  signer?: SignedAs;
}

/**
 * A successful answer as its operation's result. The one place where the service's answer is
 * taken to be what the interface says it is for that operation (`kind` and `operation` come from
 * the route and the session's binding, `result` from the service, untouched but for its keys).
 */
function handed(result: Handed): ResultToHand {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- built field by field as ResultToHand names them
  return result as ResultToHand;
}
