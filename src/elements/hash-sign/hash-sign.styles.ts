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
  /* framed like every read-only value (controls.styles.ts), in a typewriter face */
  .hash dd {
    font-family: ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
    font-size: 0.9rem;
    word-break: break-all;
  }
`;
