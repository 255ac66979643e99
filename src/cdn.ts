/** The script-tag bundle: every class and type, and every element registered. */
export * from './index.js';
import './define.js';
