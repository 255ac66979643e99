import { ProxyRefusal, proxyError } from '../errors.js';
import { eventPerson } from '../events.js';
import { STARTS } from '../operation-kinds.js';
import { newVisitorId, readCookie, visitorCookie, visitorCookieName } from '../visitor.js';
import type { Exchange, HookRequest, Step, Visitor } from './exchange.js';
import type { ProxySetup } from './setup.js';

/** Host ids and cookie ids are kept under different keys: the two never meet. */
async function visitorOf({ request, asked }: Exchange, { options, askHost }: ProxySetup): Promise<Visitor> {
  const hook = options.visitor;
  if (hook) {
    const id = await askHost('visitor', () => hook(asked));
    if (!id) throw new ProxyRefusal(proxyError('forbidden'));
    return { id, key: `host:${id}` };
  }
  const secure = options.secureCookie ?? request.secure;
  const name = visitorCookieName(secure);
  const existing = readCookie(request.header('cookie'), name);
  if (existing) return { id: existing, key: `cookie:${existing}` };
  const id = newVisitorId();
  return { id, key: `cookie:${id}`, cookie: visitorCookie(name, id, secure) };
}

/**
 * Visitor: who is asking, as the host's `visitor` hook says or by the proxy's own cookie (a new
 * visitor gets one with whatever the answer is), and what the host's hooks see of the request.
 * A session start's person goes into its events masked, or as digests with `eventSecret`.
 */
export const visitor: Step = async (x, setup) => {
  const { request, path } = x;
  // its headers made once, when a hook first reads them
  let headers: Headers | undefined;
  const asked: HookRequest = {
    method: request.method,
    path,
    get headers() {
      headers ??= request.headers();
      return headers;
    },
    raw: request.raw,
  };
  x.asked = asked;
  x.visitor = await visitorOf(x, setup);
  x.event.base.visitor = x.visitor.id;
  if (STARTS[x.operation.id]) {
    x.person = eventPerson(x.fields, setup.options.eventSecret);
    if (x.person) x.event.base.person = x.person;
  }
  x.info = {
    method: request.method,
    path,
    get headers() {
      return asked.headers;
    },
    body: x.fields,
    visitor: x.visitor.id,
    raw: request.raw,
  };
};
