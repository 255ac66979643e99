import { css } from 'lit';

/**
 * The preview sits in the signing card as its content, not as a card within the card; the card
 * offers one download, the signed file's, so the preview's own is not shown beside it.
 */
export const signStyles = css`
  esign-document-preview {
    margin-block: var(--_space);
  }
  /* on a phone the preview leaves the Sign button in reach (a host's --esign-preview-height still decides) */
  @media (max-width: 40rem) {
    esign-document-preview {
      --_preview-height: 40vh;
    }
  }
  .end-subject {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.25rem 0.5rem;
    margin: 0 0 var(--_space);
    min-inline-size: 0;
  }
  .end-subject .label {
    color: var(--_muted);
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
