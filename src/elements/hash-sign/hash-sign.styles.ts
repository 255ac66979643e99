import { css } from 'lit';

export const hashSignStyles = css`
  .hash {
    margin: 0 0 var(--_space);
  }
  .hash dt {
    font-weight: 600;
    font-size: 0.95rem;
    margin-block-end: 0.3rem;
  }
  .hash dd {
    margin: 0;
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.9rem;
    word-break: break-all;
    padding: 0.6rem 0.75rem;
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_bg-subtle);
    border: 1px solid var(--_border);
  }
`;
