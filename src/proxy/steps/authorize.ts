import { ProxyRefusal, proxyError } from '../errors.js';
import type { Step } from './exchange.js';

/** Authorize: the host's `authorize` hook decides, when it has one; anything but `true` is refused. */
export const authorize: Step = async ({ info, operation }, { options, askHost }) => {
  const hook = options.authorize;
  if (!hook) return;
  const allowed = await askHost('authorize', () => hook(info, operation), ` for ${operation.id}`);
  if (allowed !== true) throw new ProxyRefusal(proxyError('forbidden'));
};
