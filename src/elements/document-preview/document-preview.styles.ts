import { css } from 'lit';

export const previewStyles = css`
  :host {
    max-inline-size: 52rem;
  }
  h3 {
    margin: 0;
    font-size: 1rem;
  }
  .muted {
    color: var(--_muted);
    margin: 0;
  }
`;
