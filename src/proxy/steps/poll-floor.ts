import { jsonAnswer } from '../errors.js';
import { STATUS_OF } from '../operation-kinds.js';
import type { Step } from './exchange.js';
import { tokenName } from '../sealed.js';

/** The service's own answer for a session the person has not answered yet. */
export const WAITING = JSON.stringify({ status: 'waiting' });

/**
 * Poll floor: a session polled again sooner than `minPollIntervalMs` after its last poll is
 * answered "waiting" without asking the service.
 */
export const pollFloor: Step<'operation'> = ({ binding, operation }, { store, minPollInterval, visitorSecret }) => {
  if (minPollInterval <= 0 || !binding || !STATUS_OF[operation.id]) return;
  return store
    .setIfAbsent(`poll:${tokenName(visitorSecret, operation.params['token'] ?? '')}`, '1', minPollInterval)
    .then((first) => (first ? undefined : jsonAnswer(200, WAITING)));
};
