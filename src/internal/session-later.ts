/**
 * What a session element needs only after its form is on screen, in one module loaded on demand:
 * the caller that talks to the proxy and the polling of a session, the tab's record of a waiting
 * session (kept, followed after a reload, dropped at the end), and the end states: what a failure
 * says and offers, with the time left after a rate limit. The form's first paint waits for none
 * of it; the element asks for it right after (with the elements an entry defines later,
 * session-later-load.ts).
 */
export { proxyClient } from './proxy-client.js';
export { DEFAULT_TIME_LIMIT } from '../client/caller.js';
export { poll } from '../client/poll.js';
export { removeMobileSession, removeSmartIdSession } from '../protocol/operations.js';
export { dropRecord, isKept, recordKey, writeRecord } from './session-record.js';
export { resumeKept } from './session-resume.js';
export { endChoices, sessionFailed } from './session-end.js';
export { runSession, statusWords } from './session-run.js';
