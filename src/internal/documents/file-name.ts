import { css, html } from 'lit';

/** How many characters of the name's own stem stay visible however narrow the box is: enough to tell `contract` from `offer`. */
const KEPT_END = 14;
/** A mark the widget added at the stem's end (`(signed)` in the person's language): shown whole, beside 12 characters of the name's own. */
const ADDED_MARK = /\s\([^()]+\)$/;
const KEPT_BEFORE_MARK = 12;

/**
 * A file name that never widens its box: the start is cut with an ellipsis where space runs out,
 * the last characters and the extension always show (a mark in brackets at the stem's end, as
 * `(pasirašyta)`, whole, with 12 characters of the name's own before it). The whole name is the title (a pointer's
 * tooltip) and is what a screen reader reads; the two visible halves are hidden from it.
 */
export function fileName(name: string) {
  const dot = name.lastIndexOf('.');
  const stemEnd = dot > 0 ? dot : name.length;
  const mark = ADDED_MARK.exec(name.slice(0, stemEnd))?.[0] ?? '';
  const cut = Math.max(0, stemEnd - (mark ? mark.length + KEPT_BEFORE_MARK : KEPT_END));
  return html`<span class="file-name" title=${name}
    ><span class="visually-hidden">${name}</span
    ><span class="name-start" aria-hidden="true">${name.slice(0, cut)}</span
    ><span class="name-end" aria-hidden="true">${name.slice(cut)}</span></span
  >`;
}

export const fileNameStyles = css`
  .file-name {
    display: inline-flex;
    max-inline-size: 100%;
    min-inline-size: 0;
    white-space: pre;
    font-weight: 600;
  }
  .name-start {
    overflow: hidden;
    text-overflow: ellipsis;
    min-inline-size: 0;
  }
  .name-end {
    flex: none;
  }
`;
