import type { PersonValue } from '../../internal/data/person.js';

declare global {
  interface HTMLElementEventMap {
    /** Enter was pressed in a field of `esign-person-form` and no form took the submit: the person's details. */
    'esign-person-submit': CustomEvent<PersonValue | null>;
  }
  /** The same event, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-person-submit': CustomEvent<PersonValue | null>;
  }
}

export {};
