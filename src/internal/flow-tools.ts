/**
 * What a session flow needs once it sends its first request, passed in by whoever makes the flow
 * (an element passes its lazily loaded session runtime, which carries these too).
 */
export { poll } from '../client/poll.js';
export { DEFAULT_TIME_LIMIT } from '../client/caller.js';
export { removeMobileSession, removeSmartIdSession } from '../protocol/operations.js';
