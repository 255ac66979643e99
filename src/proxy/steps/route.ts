import { matchOperation, type MatchedOperation } from '../../protocol/operation-match.js';
import { proxyError } from '../errors.js';
import { REMOVALS, STARTS, STATUS_OF } from '../operation-kinds.js';
import type { Step } from './exchange.js';

/**
 * Route: the operation the path names, matched as sent (a query, an escape or a dot segment
 * matches none), and whether this proxy forwards it. Names the event's operation, kind and channel.
 */
/** The operation a request names, as sent: a query, an escape or a dot segment names none. */
export function operationOf(method: string, path: string): MatchedOperation | null {
  return /[?#%\\]/.test(path) ? null : matchOperation(method, path);
}

export const route: Step<never, 'operation'> = (x, setup) => {
  const operation = operationOf(x.request.method, x.path);
  if (!operation) return proxyError('operation-not-allowed');
  x.operation = operation;
  const base = x.event.base;
  base.operation = operation.id;
  const session = STARTS[operation.id] ?? STATUS_OF[operation.id];
  const removes = REMOVALS[operation.id];
  if (session) {
    base.kind = session.kind;
    base.channel = session.channel;
  } else if (removes) base.channel = removes;
  else base.kind = 'document';
  if (!setup.enabled.has(operation.id)) return proxyError('operation-disabled');
};
