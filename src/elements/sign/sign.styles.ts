import { css } from 'lit';

/**
 * The preview sits in the signing card as its content, not as a card within the card; the card
 * offers one download, the signed file's, so the preview's own is not shown beside it.
 */
export const signStyles = css`
  esign-document-preview {
    margin-block: var(--_space);
  }
  esign-document-preview::part(base) {
    border: 0;
    padding: 0;
    background: none;
  }
  esign-document-preview::part(open) {
    display: none;
  }
`;
