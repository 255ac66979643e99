import type { IncomingProxyRequest } from '../incoming.js';
import type { ProxyRequestInfo } from '../options.js';
import type { HookRequest } from './exchange.js';

/*
 * What the host's hooks see of a request, its headers made once when a hook first reads them.
 * Classes with the getter on their prototype, not object literals with a getter of their own: a
 * literal's getter is a new function for every request, and V8 then gives each such object a
 * hidden class of its own, made in the old generation. Under load that was most of the proxy's
 * garbage-collection time.
 */

export class HookRequestView implements HookRequest {
  method: string;
  path: string;
  raw: unknown;
  #request: IncomingProxyRequest;
  #headers: Headers | undefined;

  constructor(request: IncomingProxyRequest, path: string) {
    this.method = request.method;
    this.path = path;
    this.raw = request.raw;
    this.#request = request;
  }

  get headers(): Headers {
    return (this.#headers ??= this.#request.headers());
  }
}

export class RequestInfoView implements ProxyRequestInfo {
  method: string;
  path: string;
  body: Record<string, unknown>;
  visitor: string;
  requestId: string;
  raw: unknown;
  #asked: HookRequest;

  constructor(asked: HookRequest, body: Record<string, unknown>, visitor: string, requestId: string) {
    this.method = asked.method;
    this.path = asked.path;
    this.body = body;
    this.visitor = visitor;
    this.requestId = requestId;
    this.raw = asked.raw;
    this.#asked = asked;
  }

  get headers(): Headers {
    return this.#asked.headers;
  }
}
