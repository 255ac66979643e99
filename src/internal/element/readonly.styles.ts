import { css } from 'lit';

/**
 * A value set by the site (a signer's code, a single country, a hash): a label, then the value read
 * like text and framed like the fields beside it. Only the session elements show such values.
 */
export const readonlyStyles = css`
  .label {
    font-weight: 600;
    font-size: 0.95rem;
  }
  .readonly-value {
    margin: 0;
    display: flex;
    align-items: center;
    min-block-size: 2.875rem;
    box-sizing: border-box;
    padding: 0.5rem 0.75rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_bg-subtle);
    overflow-wrap: anywhere;
  }
  /* forced colours drop the fill that tells a value from a field: a dashed frame says it instead */
  @media (forced-colors: active) {
    .readonly-value {
      border: 1px dashed CanvasText;
    }
  }
`;
