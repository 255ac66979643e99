import { ProxyRefusal, proxyError } from '../errors.js';
import type { Step } from './exchange.js';
import type { ProxySetup } from './setup.js';

/** Authorize: the host's `authorize` hook decides, when it has one; anything but `true` is refused. */
export const authorize: Step<'operation' | 'info'> = ({ info, operation }, { options, askHost }) => {
  const hook = options.authorize;
  return hook ? ask(() => hook(info, operation), operation.id, askHost) : undefined;
};

async function ask(call: () => boolean | Promise<boolean>, id: string, askHost: ProxySetup['askHost']): Promise<void> {
  const allowed = await askHost('authorize', call, ` for ${id}`);
  if (allowed !== true) throw new ProxyRefusal(proxyError('forbidden'));
}
