import { css } from 'lit';

export const personFormStyles = css`
  :host {
    display: block;
  }
  .row {
    display: grid;
    gap: 0 var(--_space);
  }
  @container (min-width: 30rem) {
    .row.two {
      grid-template-columns: minmax(8rem, 1fr) 2fr;
    }
  }
  .wrap {
    container-type: inline-size;
  }
`;
