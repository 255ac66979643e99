/** The script-tag bundle: every class and type, and every element registered. */
import { defineAll } from './define.js';

export * from './index.js';
export { defineAll };

// called here, not only by define.js on import, so that no bundler can drop the registration
defineAll();
