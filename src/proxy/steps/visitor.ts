import { ProxyRefusal, proxyError } from '../errors.js';
import { eventPerson } from '../events.js';
import type { IncomingProxyRequest } from '../incoming.js';
import { STARTS } from '../operation-kinds.js';
import type { ProxyOptions } from '../options.js';
import { newVisitorId, readCookie, visitorCookie, visitorCookieName } from '../visitor.js';
import type { HookRequest, Step, Visitor, Has } from './exchange.js';
import { HookRequestView, RequestInfoView } from './hook-request.js';
import type { ProxySetup } from './setup.js';

/** The visitor by the proxy's own cookie: a new visitor gets a new id and the cookie that carries it. */
function cookieVisitor(request: IncomingProxyRequest, options: ProxyOptions): Visitor {
  const secure = options.secureCookie ?? request.secure;
  const name = visitorCookieName(secure);
  const existing = readCookie(request.header('cookie'), name);
  if (existing) return { id: existing, key: `cookie:${existing}` };
  const id = newVisitorId();
  return { id, key: `cookie:${id}`, cookie: visitorCookie(name, id, secure) };
}

/** The visitor as the host's hook names them. Host ids and cookie ids are kept under different keys: the two never meet. */
async function hostVisitor(x: Has<'operation'>, asked: HookRequest, setup: ProxySetup, hook: NonNullable<ProxyOptions['visitor']>): Promise<void> {
  const id = await setup.askHost('visitor', () => hook(asked));
  if (!id) throw new ProxyRefusal(proxyError('forbidden'));
  known(x, asked, setup, { id, key: `host:${id}` });
}

function known(x: Has<'operation'>, asked: HookRequest, setup: ProxySetup, visitor: Visitor): void {
  x.visitor = visitor;
  x.event.base.visitor = visitor.id;
  if (STARTS[x.operation.id]) {
    x.person = eventPerson(x.fields, setup.options.eventSecret);
    if (x.person) x.event.base.person = x.person;
  }
  x.info = new RequestInfoView(asked, x.fields, visitor.id);
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
  known(x, asked, setup, cookieVisitor(x.request, setup.options));
};
