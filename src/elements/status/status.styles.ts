import { css } from 'lit';

export const statusStyles = css`
  :host {
    display: block;
    /* its own width decides the layout, not the window's: a status in a narrow column of a wide page too */
    container-type: inline-size;
  }
  .status {
    display: flex;
    /* the icon beside the title, also when the message runs over lines */
    align-items: flex-start;
    gap: 0.9rem;
    padding: 0.9rem var(--_space);
    border-radius: var(--_radius);
    background: var(--_bg-subtle);
    border: 1px solid var(--_border);
  }
  .status[hidden] {
    display: none;
  }
  .text {
    flex: 1;
    min-inline-size: 0;
  }
  .message {
    margin: 0;
    font-weight: 600;
  }
  .detail {
    margin: 0.15rem 0 0;
    overflow-wrap: break-word;
  }
  .waiting .detail {
    color: var(--_muted);
  }
  .elapsed {
    margin: 0;
    color: var(--_muted);
    font-size: 0.9rem;
    font-variant-numeric: tabular-nums;
  }
  .spinner {
    flex: none;
    inline-size: 1.6rem;
    block-size: 1.6rem;
    border-radius: 50%;
    border: 3px solid color-mix(in srgb, var(--_accent) 25%, transparent);
    border-block-start-color: var(--_accent);
    animation: spin 0.9s linear infinite;
  }
  /* forced colours would draw the whole ring in one colour, still: its turning part in another */
  @media (forced-colors: active) {
    .spinner {
      forced-color-adjust: none;
      border-color: GrayText;
      border-block-start-color: Highlight;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: pulse 2s ease-in-out infinite !important;
      animation-duration: 2s !important;
      animation-iteration-count: infinite !important;
      border-block-start-color: color-mix(in srgb, var(--_accent) 25%, transparent);
      background: color-mix(in srgb, var(--_accent) 20%, transparent);
    }
  }
  .icon {
    flex: none;
    display: grid;
    place-items: center;
    inline-size: 1.8rem;
    block-size: 1.8rem;
    border-radius: 50%;
    font-weight: 700;
    color: var(--_bg);
  }
  .success .icon {
    background: var(--_success);
  }
  .error .icon {
    background: var(--_danger);
  }
  .cancelled .icon {
    background: var(--_muted);
  }
  .error {
    border-color: var(--_danger);
  }
  .status button {
    flex: none;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  @keyframes pulse {
    50% {
      opacity: 0.4;
    }
  }
  @container (max-width: 24rem) {
    .status {
      flex-wrap: wrap;
    }
    .status button {
      inline-size: 100%;
    }
  }
`;
