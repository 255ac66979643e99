import { css } from 'lit';

export const signerListStyles = css`
  .signers {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    gap: 0.5rem;
  }
  .signer {
    display: grid;
    gap: 0.3rem;
    padding: 0.75rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
  }
  .signer-top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.75rem;
  }
  .signer-name {
    font-weight: 700;
    flex: 1 1 10rem;
    overflow-wrap: break-word;
    min-inline-size: 0;
  }
  .badge {
    display: inline-block;
    padding: 0.1rem 0.6rem;
    border-radius: 999px;
    font-size: 0.85rem;
    font-weight: 600;
    border: 1px solid currentColor;
  }
  .badge.signed {
    color: var(--_success);
  }
  .badge.rejected,
  .badge.denied {
    color: var(--_danger);
  }
  .badge.other {
    color: var(--_muted);
  }
`;
