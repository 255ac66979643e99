import { css } from 'lit';

/** Fields, buttons and messages shared by the elements, built on the theme tokens. */
export const controls = css`
  .base {
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 1.25);
    display: grid;
    /* one column no wider than the frame: nothing inside (a long line, a long name) widens the page */
    grid-template-columns: minmax(0, 1fr);
    gap: var(--_space);
  }
  /* what the focus is moved to by script (a message, a summary, the status): read aloud, not drawn as a control */
  [tabindex='-1']:focus {
    outline: none;
  }
  .field {
    display: grid;
    gap: 0.3rem;
    margin-block-end: calc(var(--_space) * 0.9);
  }
  label,
  legend {
    font-weight: 600;
    font-size: 0.95rem;
  }
  .hint {
    color: var(--_muted);
    font-size: 0.85rem;
  }
  input,
  select {
    font: inherit;
    color: var(--_fg);
    background: var(--_bg);
    border: 1px solid var(--_field);
    border-radius: calc(var(--_radius) * 0.8);
    padding: 0 0.75rem;
    block-size: 2.875rem;
    box-sizing: border-box;
    width: 100%;
  }
  input:focus-visible,
  select:focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 1px;
    border-color: var(--_focus);
  }
  input[aria-invalid='true'] {
    border-color: var(--_danger);
    border-width: 2px;
  }
  /* forced colours draw every border alike: an invalid field keeps a doubled, thicker one */
  @media (forced-colors: active) {
    input[aria-invalid='true'] {
      border-style: double;
      border-width: 4px;
    }
  }
  .field-error {
    color: var(--_danger);
    font-size: 0.9rem;
    display: flex;
    gap: 0.35rem;
    align-items: baseline;
  }
  .field-error::before {
    content: '!';
    /* a sign for the eye only: not part of the message's accessible name or description */
    content: '!' / '';
    display: inline-grid;
    place-items: center;
    flex: none;
    inline-size: 1.1em;
    block-size: 1.1em;
    border-radius: 50%;
    background: var(--_danger);
    color: var(--_bg);
    font-weight: 700;
    font-size: 0.8em;
  }
  button {
    font: inherit;
    font-weight: 600;
    min-height: 2.75rem;
    padding: 0.6rem 1.2rem;
    border-radius: calc(var(--_radius) * 0.8);
    border: 1px solid var(--_accent);
    cursor: pointer;
  }
  button.primary {
    background: var(--_accent);
    color: var(--_on-accent);
  }
  button.secondary {
    background: transparent;
    color: var(--_accent);
  }
  button[aria-disabled='true'] {
    opacity: 0.6;
    cursor: progress;
  }
  button:disabled {
    opacity: 0.6;
    cursor: progress;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem;
    margin-block-start: var(--_space);
  }
  .visually-hidden {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;
