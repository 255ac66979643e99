import { css } from 'lit';

/** Panels, lists and small controls shared by the document elements. */
export const documentStyles = css`
  :host {
    display: block;
    container-type: inline-size;
  }
  h2,
  h3 {
    margin: 0;
    font-size: 1.05rem;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    margin: 0 0 var(--_space);
    padding: 0.75rem var(--_space) 0;
    min-inline-size: 0;
  }
  legend {
    padding: 0 0.3rem;
  }
  .grid {
    display: grid;
    gap: 0 var(--_space);
    grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
  }
  /* fields side by side share their rows: a label that wraps leaves the inputs aligned */
  .grid > .field {
    grid-row: span 3;
    grid-template-rows: subgrid;
  }
  .signers-title {
    margin-block-end: 0.6rem;
  }
  .field-head {
    display: grid;
    gap: 0.3rem;
    align-content: end;
  }
  .choice {
    display: flex;
    align-items: center;
    gap: 0.5rem;
    margin-block-end: 0.6rem;
    font-weight: 400;
  }
  .choice input {
    inline-size: 1.15rem;
    block-size: 1.15rem;
    margin: 0;
    accent-color: var(--_accent);
  }
  .row-actions {
    display: flex;
    justify-content: flex-end;
    margin-block-end: 0.75rem;
  }
  /* one header for every section: its title left, its action right */
  .head {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
  }
  .message {
    margin: 0;
    padding: 0.75rem var(--_space);
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_bg-subtle);
    border: 1px solid var(--_border);
  }
  /* the feedback of every element, as esign-status draws it: the icon beside the words, at their
     first line however many lines they run to; a failure's heading above its reason */
  .message.error,
  .message.done {
    display: flex;
    align-items: flex-start;
    gap: 0.9rem;
    padding: 0.9rem var(--_space);
    border-radius: var(--_radius);
  }
  .message.error::before,
  .message.done::before {
    flex: none;
    display: inline-grid;
    place-items: center;
    inline-size: 1.8rem;
    block-size: 1.8rem;
    border-radius: 50%;
    font-weight: 700;
    color: var(--_bg);
  }
  .message > .text {
    flex: 1;
    min-inline-size: 0;
    display: grid;
    gap: 0.15rem;
    /* the first line's middle level with the icon's */
    padding-block-start: 0.15rem;
    overflow-wrap: break-word;
  }
  .message .title {
    font-weight: 600;
  }
  .message.error {
    border-color: var(--_danger);
  }
  .message.error::before {
    content: '!';
    /* a sign for the eye only: not part of the message's accessible name or description */
    content: '!' / '';
    background: var(--_danger);
  }
  .message.done {
    border-color: var(--_success);
  }
  .message.done::before {
    content: '✓';
    content: '✓' / '';
    background: var(--_success);
  }
  .links {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.6rem;
  }
  .links > li {
    display: grid;
    gap: 0.35rem;
    padding: 0.75rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
  }
  .url {
    font-family: ui-monospace, Menlo, Consolas, monospace;
    font-size: 0.85rem;
    overflow-wrap: anywhere;
    color: var(--_fg);
  }
  .id {
    font-family: ui-monospace, Menlo, Consolas, monospace;
    font-size: 0.85rem;
    overflow-wrap: anywhere;
  }
  .uploaded {
    display: grid;
    gap: 0.2rem;
    margin: 0;
  }
  .inline {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.6rem;
  }
  .muted {
    color: var(--_muted);
    font-size: 0.9rem;
  }
  /* an empty live region keeps its place in the accessibility tree but takes no room */
  [role='status']:empty {
    position: absolute;
    margin: 0;
  }
  .confirm {
    display: grid;
    gap: 0.6rem;
    padding: 0.75rem;
    border: 2px solid var(--_danger);
    border-radius: calc(var(--_radius) * 0.8);
  }
  button.danger {
    background: var(--_danger);
    border-color: var(--_danger);
    color: var(--_bg);
  }
  /* what opens a removal: plainly destructive, and unlike a download */
  button.destructive {
    color: var(--_danger);
    border-color: var(--_danger);
  }
  button.small {
    min-height: 2.25rem;
    padding: 0.3rem 0.8rem;
    font-size: 0.9rem;
  }
`;
