import { loadOnce } from './load-once.js';

/**
 * Elements an entry defines only once a form is on screen (the control code and the status of
 * `esign-identify` and `esign-hash-sign`, which show nothing before a session starts), loaded with
 * the session's code. An entry that has them in its file already names none.
 */
export const definedLater: (() => Promise<unknown>)[] = [];

/**
 * The part of a session element loaded after its form is on screen (see session-later.ts), asked
 * for once, by the element and its flow alike, with the elements defined later.
 */
export const later = loadOnce(() =>
  Promise.all([import('./session-later.js'), ...definedLater.map((load) => load())]).then(([module]) => module),
);
