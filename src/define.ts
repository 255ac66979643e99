// every element, with its tag and event maps for a page (and its types) that imports this entry
// alone: the bare import stays in the declarations, which drop an import of values they do not name
import './elements.js';
import { ELEMENTS } from './elements.js';
import { defineElement } from './internal/element/define.js';

/** Registers every element; safe to run more than once. */
export function defineAll(): void {
  for (const [name, constructor] of Object.entries(ELEMENTS)) defineElement(name, constructor);
}

defineAll();
