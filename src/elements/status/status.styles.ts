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
  /* focused by the element as a session starts or ends: the focus shows, whatever moved it there */
  .status:focus {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
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
  /* a detail's items side by side, a separator in the gap before each but the first of a line: the
     first's falls outside the items' box, which clips it */
  .detail .items {
    display: flex;
    flex-wrap: wrap;
    column-gap: 1.2em;
    overflow: hidden;
  }
  .detail .item {
    position: relative;
    min-inline-size: 0;
  }
  .detail .sep {
    position: absolute;
    inset-inline-start: -1.2em;
    inline-size: 1.2em;
    text-align: center;
    white-space: pre;
  }
  /* one a line where the status is narrow (a phone) */
  @container (max-width: 28rem) {
    .detail .items,
    .detail .item {
      display: block;
    }
    .detail .sep {
      display: none;
    }
  }
  .elapsed {
    margin: 0;
    color: var(--_muted);
    font-size: 0.9rem;
    font-variant-numeric: tabular-nums;
  }
  .left.ending {
    color: var(--_fg);
    font-weight: 600;
  }
  /* the time left, draining from full to empty; its words say the same, so it is hidden from a screen reader */
  .drain {
    block-size: 0.3rem;
    margin-block-start: 0.35rem;
    border-radius: 0.15rem;
    background: color-mix(in srgb, var(--_accent) 18%, transparent);
    overflow: hidden;
  }
  .drain-bar {
    block-size: 100%;
    background: var(--_accent);
    transform-origin: left;
  }
  :host(:dir(rtl)) .drain-bar {
    transform-origin: right;
  }
  @media (prefers-reduced-motion: no-preference) {
    .drain-bar {
      transition: transform 1s linear;
    }
  }
  @media (forced-colors: active) {
    .drain {
      border: 1px solid CanvasText;
    }
    .drain-bar {
      forced-color-adjust: none;
      background: Highlight;
    }
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
  /* with reduced motion nothing moves: a still ring, its upper part in the accent colour */
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation: none !important;
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
  @container (max-width: 24rem) {
    .status {
      flex-wrap: wrap;
    }
    .status button {
      inline-size: 100%;
    }
  }
`;
