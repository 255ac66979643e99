import { ProxyRefusal, proxyError } from '../errors.js';
import { eventPerson } from '../events.js';
import type { IncomingProxyRequest } from '../incoming.js';
import { STARTS } from '../operation-kinds.js';
import type { ProxyOptions } from '../options.js';
import { newVisitorId, readCookie, visitorCookie, visitorCookieName, visitorDigest } from '../visitor.js';
import type { HookRequest, Step, Visitor, Has } from './exchange.js';
import { HookRequestView, RequestInfoView } from './hook-request.js';
import type { ProxySetup } from './setup.js';

/**
 * The visitor by the proxy's own cookie: a new visitor, or one whose cookie the proxy did not mint,
 * gets a new id and the cookie that carries it.
 */
function cookieVisitor(request: IncomingProxyRequest, options: ProxyOptions, secret: string): Visitor {
  const existing = readCookie(request.header('cookie'), visitorCookieName(options.secureCookie ?? request.secure), secret);
  return existing ? { id: existing, key: `cookie:${existing}` } : mintVisitor(request, options, secret);
}

/** A new visitor id of the proxy's own, and the cookie that carries it (a login rotates it so). */
export function mintVisitor(request: IncomingProxyRequest, options: ProxyOptions, secret: string): Visitor {
  const secure = options.secureCookie ?? request.secure;
  const id = newVisitorId(secret);
  return { id, key: `cookie:${id}`, cookie: visitorCookie(visitorCookieName(secure), id, secure) };
}

/** The visitor as the host's hook names them. Host ids and cookie ids are kept under different keys: the two never meet. */
async function hostVisitor(x: Has<'operation'>, asked: HookRequest, setup: ProxySetup, hook: NonNullable<ProxyOptions['visitor']>): Promise<void> {
  const id = await setup.askHost('visitor', () => hook(asked));
  if (!id) throw new ProxyRefusal(proxyError('forbidden'));
  known(x, asked, setup, { id, key: `host:${id}` });
}

function known(x: Has<'operation'>, asked: HookRequest, setup: ProxySetup, visitor: Visitor): void {
  x.visitor = visitor;
  // the id may be a session cookie's value: events and logs get its keyed digest only
  x.event.base.visitor = visitorDigest(visitor.id, setup.eventKey);
  if (STARTS[x.operation.id]) {
    x.person = eventPerson(x.fields, setup.options.eventSecret);
    if (x.person) x.event.base.person = x.person;
  }
  x.info = new RequestInfoView(asked, x.fields, visitor.id, x.requestId);
}

/**
 * Visitor: who is asking, as the host's `visitor` hook says or by the proxy's own cookie (a new
 * visitor gets one with whatever the answer is), and what the host's hooks see of the request.
 * A session start's person goes into its events masked, or as digests with `eventSecret`.
 */
export const visitor: Step<'operation', 'visitor' | 'asked' | 'info'> = (x, setup) => {
  const asked = (x.asked = new HookRequestView(x.request, x.path));
  const hook = setup.options.visitor;
  if (hook) return hostVisitor(x, asked, setup, hook);
  known(x, asked, setup, cookieVisitor(x.request, setup.options, setup.visitorSecret));
};
