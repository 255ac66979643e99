import { css } from 'lit';

export const personFormStyles = css`
  :host {
    display: block;
  }
  .row {
    display: grid;
    gap: 0 var(--_space);
  }
  .spacer {
    display: none;
  }
  @container (min-width: 30rem) {
    .row.two {
      grid-template-columns: minmax(8rem, 1fr) 2fr;
    }
    /* keeps the select level with the code input, which has a hint above it */
    .spacer {
      display: block;
    }
  }
  .wrap {
    container-type: inline-size;
  }
`;
