/**
 * What a session element needs only after its form is on screen, in one module loaded on demand:
 * the tab's record of a waiting session (kept, followed after a reload, dropped at the end) and
 * the time left after a rate limit. The form's first paint waits for none of it.
 */
export { dropRecord, isKept, recordKey, writeRecord } from './session-record.js';
export { resumeKept } from './session-resume.js';
export { RetryWait } from './retry-wait.js';
