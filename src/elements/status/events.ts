declare global {
  interface HTMLElementEventMap {
    /** `esign-status`'s cancel button was pressed (a session element inside which it sits cancels its session). */
    'esign-cancel-request': CustomEvent<undefined>;
  }
  /** The same event, bubbled and composed up to the document: a listener there is typed too. */
  interface DocumentEventMap {
    'esign-cancel-request': CustomEvent<undefined>;
  }
}

export {};
