import { css } from 'lit';

export const documentElementStyles = css`
  :host {
    max-inline-size: 44rem;
  }
  .header {
    display: flex;
    flex-wrap: wrap;
    gap: calc(var(--_space) / 2) var(--_space);
    justify-content: space-between;
    align-items: start;
  }
  .title {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.35rem;
    justify-items: start;
    min-inline-size: 0;
    flex: 1 1 14rem;
  }
  h2 {
    display: flex;
    max-inline-size: 100%;
    min-inline-size: 0;
  }
  /* the document's name is the card's title: above its sections, not beside them */
  .title h2 {
    font-size: 1.3rem;
    line-height: 1.3;
  }
  /* the state as a badge: a word and a shape, never colour alone */
  .state {
    padding: 0.1rem 0.6rem;
    border: 1px solid currentColor;
    border-radius: 1rem;
    font-size: 0.85rem;
    font-weight: 600;
  }
  .state:empty {
    display: none;
  }
  .state.signed {
    color: var(--_success);
  }
  .more summary {
    cursor: pointer;
    color: var(--_muted);
    font-size: 0.9rem;
  }
  .more .inline {
    margin-block-start: 0.4rem;
  }
  .parts {
    display: grid;
    gap: var(--_space);
  }
  /* inside the document the parts are sections, not frames within a frame: a rule above each */
  .parts > *::part(base),
  .parts esign-signing-link::part(base) {
    border-width: 1px 0 0;
    border-radius: 0;
    padding-inline: 0;
  }
  .parts > section {
    border-block-start: 1px solid var(--_border);
    padding-block-start: calc(var(--_space) * 1.25);
  }
  .parts esign-signing-link::part(base) {
    border-width: 0;
    padding-block-start: calc(var(--_space) * 0.75);
  }
  .section-title {
    margin-block-end: 0.5rem;
  }
`;
