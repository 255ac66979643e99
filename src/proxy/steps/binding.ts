import { ProxyRefusal, jsonAnswer } from '../errors.js';
import { REMOVALS, STATUS_OF } from '../operation-kinds.js';
import type { Binding, Step } from './exchange.js';

export const SESSION_NOT_FOUND = 'Session for given token was not found';

/**
 * Binding: a status poll or a removal is for a session this visitor started, of this kind and
 * channel. Any other token gets the service's own answer for a token it does not know, whether
 * the session exists or not.
 */
export const binding: Step = async (x, { store }) => {
  const { operation } = x;
  const removalChannel = REMOVALS[operation.id];
  if (!removalChannel && !STATUS_OF[operation.id]) return;
  const sessionToken = operation.params['token'] ?? operation.params['sessionId'] ?? '';
  const stored = await store.get(`bind:${sessionToken}`);
  const bound = stored ? (JSON.parse(stored) as Binding) : null;
  const fits = bound !== null && bound.visitor === x.visitor.key && (removalChannel ? bound.channel === removalChannel : bound.status === operation.id);
  if (fits) {
    x.binding = bound;
    return;
  }
  const answer = removalChannel ? { status: 'error', message: SESSION_NOT_FOUND } : { status: 'error', message: SESSION_NOT_FOUND, error_code: 40402 };
  throw new ProxyRefusal(jsonAnswer(404, answer), { reason: 'not-your-session' });
};
