/**
 * The script-tag bundle: every class and helper of the package, and every element registered. The
 * phone-message check (`checkMessage` and its helpers) is left out: the elements load it on demand,
 * only when a host sets a Mobile-ID `message`.
 */
import { defineAll } from './define.js';

export * from './api.js';
export { defineAll };

// called here, not only by define.js on import, so that no bundler can drop the registration
defineAll();
