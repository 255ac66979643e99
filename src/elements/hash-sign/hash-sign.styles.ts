import { css } from 'lit';

export const hashSignStyles = css`
  .subject {
    margin: 0 0 var(--_space);
    font-size: 1.1rem;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .note {
    margin: 0 0 var(--_space);
    color: var(--_muted);
  }
  .hash {
    margin: 0 0 var(--_space);
  }
  .hash summary {
    cursor: pointer;
    inline-size: fit-content;
    min-block-size: 2.75rem;
    display: flex;
    align-items: center;
    gap: 0.5rem;
    font-size: 0.95rem;
    color: var(--_muted);
    list-style: none;
  }
  .hash summary::-webkit-details-marker {
    display: none;
  }
  /* a chevron that points at what opens, and down once it is open */
  .hash summary::before {
    content: '';
    inline-size: 0.45rem;
    block-size: 0.45rem;
    border-inline-end: 2px solid currentColor;
    border-block-end: 2px solid currentColor;
    transform: rotate(-45deg);
    transition: transform 0.15s;
  }
  .hash[open] summary::before {
    transform: rotate(45deg);
  }
  @media (prefers-reduced-motion: reduce) {
    .hash summary::before {
      transition: none;
    }
  }
  .hash summary:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
    border-radius: 2px;
  }
  .hash dl {
    margin: 0.3rem 0 0;
  }
  /* groups of four with room between them, no space when copied */
  .hash .group {
    display: inline-block;
    margin-inline-end: 0.45em;
  }
  .hash dt {
    font-weight: 600;
    font-size: 0.95rem;
    margin-block-end: 0.3rem;
  }
  /* framed like every read-only value (controls.styles.ts), in a typewriter face */
  .hash dd {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.9rem;
    word-break: break-all;
    flex-wrap: wrap;
  }
`;
