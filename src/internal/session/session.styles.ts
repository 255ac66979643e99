import { css } from 'lit';

/** The frame, channel choice and end states shared by the session elements. */
export const sessionStyles = css`
  :host {
    display: block;
    max-inline-size: 34rem;
  }
  fieldset {
    border: 0;
    margin: 0 0 var(--_space);
    padding: 0;
    min-inline-size: 0;
  }
  legend {
    margin-block-end: 0.4rem;
    padding: 0;
  }
  .channels {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 9rem), 1fr));
    gap: 0.5rem;
  }
  .channel {
    position: relative;
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
    min-block-size: 2.75rem;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_field);
    border-radius: calc(var(--_radius) * 0.8);
    font-weight: 600;
    cursor: pointer;
    background: var(--_bg);
    /* "Mobile-ID" is one word: never broken at its hyphen */
    white-space: nowrap;
  }
  .channel:has(input:checked) {
    border: 2px solid var(--_accent);
    background: color-mix(in srgb, var(--_accent) 10%, var(--_bg));
    color: var(--_fg);
  }
  /* one method offered: said as a line of text, not a tile that looks pressable */
  .channel-only {
    margin: 0 0 var(--_space);
    color: var(--_fg);
  }
  .channel input {
    accent-color: var(--_accent);
    inline-size: 1.1rem;
    block-size: 1.1rem;
    margin: 0;
  }
  .channel:has(input:focus-visible) {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  .done {
    margin: 0;
  }
  .wait {
    margin: 0;
    align-self: center;
  }
  .connection {
    margin: 0;
    padding: 0.5rem 0.75rem;
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_bg-subtle);
    border-inline-start: 4px solid var(--_success);
  }
  .connection.lost {
    border-inline-start-color: var(--_warning);
  }
  /* nothing to say: out of the grid's rows and gaps, still a live region that will speak */
  .connection:empty {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    padding: 0;
    border: 0;
    overflow: hidden;
    clip-path: inset(50%);
  }
  .actions button,
  .actions a {
    flex: 1 1 auto;
  }
  @media (min-width: 30rem) {
    .actions button,
    .actions a {
      flex: 0 0 auto;
    }
  }
  /* starting: busy, not disabled (full colour, a small turning ring before the words) */
  button.busy[aria-disabled='true'] {
    opacity: 1;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 0.5rem;
  }
  .busy-ring {
    flex: none;
    inline-size: 1em;
    block-size: 1em;
    border-radius: 50%;
    border: 2px solid color-mix(in srgb, currentColor 35%, transparent);
    border-block-start-color: currentColor;
    animation: busy-turn 0.9s linear infinite;
  }
  @keyframes busy-turn {
    to {
      transform: rotate(1turn);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .busy-ring {
      animation: none;
    }
  }
  @media (forced-colors: active) {
    .busy-ring {
      forced-color-adjust: none;
      border-color: GrayText;
      border-block-start-color: Highlight;
    }
  }
`;
