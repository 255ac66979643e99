import { loadOnce } from './load-once.js';

type Later = typeof import('./session-later.js');

/** The module once it is here: an end state renders from it (every end state comes after it loaded). */
export let laterLoaded: Later | undefined;

/**
 * The part of a session element loaded after its form is on screen (see session-later.ts): one
 * module, asked for once, by the element and its flow alike.
 */
export const later = loadOnce(() => import('./session-later.js').then((module) => (laterLoaded = module)));
