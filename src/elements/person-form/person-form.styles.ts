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
    /* one set of rows for both fields: labels, hints, inputs and errors stay level whichever wraps or shows an error */
    .row.two {
      grid-template-columns: minmax(8rem, 1fr) 2fr;
      grid-template-rows: repeat(4, auto);
    }
    .row.two > .field {
      grid-row: span 4;
      grid-template-rows: subgrid;
      align-content: start;
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
