import { css } from 'lit';

/** What the viewer shows (toolbar, pages, text layer, a container's files): loaded with the viewer. */
export const viewerStyles = css`
  /* one row at every width from 320 px: the page as "2 / 5", the zoom as its percentage */
  .toolbar {
    display: flex;
    /* where the two groups do not fit on one row, the zoom goes to a row of its own, never past the edge */
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: 0.25rem;
  }
  .toolbar .group {
    display: flex;
    align-items: center;
    gap: 0.25rem;
  }
  .toolbar .zoom {
    margin-inline-start: auto;
  }
  .toolbar button {
    min-width: 2.5rem;
    padding-inline: 0.4rem;
    white-space: nowrap;
  }
  .toolbar [part='fit'] {
    min-width: 3.75rem;
  }
  /* a phone of 320 px in a host's card: smaller targets (still over 24 px), one row kept */
  @container (max-width: 19rem) {
    .toolbar button {
      min-width: 2rem;
      padding-inline: 0.2rem;
    }
    .toolbar [part='fit'] {
      min-width: 3.25rem;
    }
    .position {
      min-inline-size: 2.75rem;
    }
  }
  .position {
    min-inline-size: 3.5rem;
    text-align: center;
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }
  .viewport {
    position: relative;
    overflow: auto;
    max-block-size: var(--esign-preview-height, var(--_preview-height, 70vh));
    min-block-size: 8rem;
    background: var(--_bg-subtle);
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    padding: 0.75rem;
    box-sizing: border-box;
    /* the same width whether the page scrolls or not, so a fitted page stays fitted */
    scrollbar-gutter: stable;
  }
  /* a phone: the page gets the width the frame's padding took, so that it is drawn as large as it can be */
  @container (max-width: 30rem) {
    .viewport {
      padding: 0.125rem;
    }
  }
  .page {
    position: relative;
    inline-size: fit-content;
    margin-inline: auto;
    background: #ffffff;
    box-shadow: 0 1px 4px rgb(0 0 0 / 0.25);
    --scale-round-x: 1px;
    --scale-round-y: 1px;
  }
  canvas {
    display: block;
  }
  /* the page's words, transparent over the drawing: read by screen readers, found by search, selectable */
  .textLayer {
    position: absolute;
    inset: 0;
    overflow: clip;
    line-height: 1;
    text-align: initial;
    text-size-adjust: none;
    forced-color-adjust: none;
    transform-origin: 0 0;
    caret-color: CanvasText;
    --min-font-size: 1;
    --text-scale-factor: calc(var(--total-scale-factor) * var(--min-font-size));
    --min-font-size-inv: calc(1 / var(--min-font-size));
  }
  .textLayer :is(span, br) {
    color: transparent;
    position: absolute;
    white-space: pre;
    cursor: text;
    transform-origin: 0% 0%;
  }
  .textLayer > :not(.markedContent),
  .textLayer .markedContent span:not(.markedContent) {
    z-index: 1;
    --font-height: 0;
    font-size: calc(var(--text-scale-factor) * var(--font-height));
    --scale-x: 1;
    --rotate: 0deg;
    transform: rotate(var(--rotate)) scaleX(var(--scale-x)) scale(var(--min-font-size-inv));
  }
  .textLayer .markedContent {
    display: contents;
  }
  .textLayer ::selection {
    background: color-mix(in srgb, AccentColor, transparent 75%);
  }
  .files {
    list-style: none;
    margin: 0;
    padding: 0;
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: 0.35rem;
  }
  .files li {
    display: flex;
    /* a name that does not fit beside its size and button takes a line of its own before it is cut */
    flex-wrap: wrap;
    align-items: center;
    gap: 0.75rem;
    padding: 0.4rem 0.6rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.6);
  }
  .files .file-name {
    flex: 1 1 auto;
  }
  .files .size {
    color: var(--_muted);
    font-size: 0.85rem;
    white-space: nowrap;
  }
  .files button {
    min-height: 2.25rem;
    padding: 0.25rem 0.8rem;
  }
  .shown {
    margin: 0;
    display: flex;
    gap: 0.35rem;
    min-inline-size: 0;
    color: var(--_muted);
  }
  /* the file shown: marked as chosen (accent, bold), never greyed as if it could not be pressed */
  .files button[aria-pressed='true'] {
    background: color-mix(in srgb, var(--_accent) 12%, var(--_bg));
    color: var(--_accent);
    border-color: var(--_accent);
    font-weight: 600;
  }
  .open {
    display: inline-block;
    max-inline-size: 100%;
    overflow-wrap: anywhere;
    margin-block-start: 0.5rem;
    color: var(--_accent);
    text-underline-offset: 0.15em;
  }
  .open:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
    border-radius: 2px;
  }
`;
