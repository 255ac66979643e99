import { ELEMENTS } from './elements.js';
// the tag and event maps of every element, for a page (and its types) that imports this entry alone
import './elements.js';
import './elements/document/events.js';
import './elements/document-preview/events.js';
import './elements/document-upload/events.js';
import './elements/hash-sign/events.js';
import './elements/identify/events.js';
import './elements/person-form/events.js';
import './elements/sign/events.js';
import './elements/signer-list/events.js';
import './elements/signing-link/events.js';
import './elements/status/events.js';
import './elements/validation-report/events.js';
import { defineElement } from './internal/define.js';

/** Registers every element; safe to run more than once. */
export function defineAll(): void {
  for (const [name, constructor] of Object.entries(ELEMENTS)) defineElement(name, constructor);
}

defineAll();
