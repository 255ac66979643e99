import { css } from 'lit';
import { fileNameStyles } from './file-name.js';

export const filePickerStyles = css`
  ${fileNameStyles}
  .documents {
    margin-block-end: var(--_space);
  }
  .documents-label {
    display: block;
    font-weight: 600;
    font-size: 0.95rem;
    margin-block-end: 0.4rem;
  }
  .drop {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 0.5rem 0.9rem;
    padding: var(--_space);
    border: 2px dashed var(--_field);
    border-radius: var(--_radius);
    background: var(--_bg-subtle);
  }
  .drop.over {
    border-color: var(--_accent);
    background: color-mix(in srgb, var(--_accent) 8%, var(--_bg));
  }
  .drop.invalid {
    border-color: var(--_danger);
  }
  @media (forced-colors: active) {
    .drop.invalid {
      border-style: double;
      border-width: 4px;
    }
  }
  .drop .hint {
    flex: 1 1 12rem;
  }
  .file-list {
    list-style: none;
    margin: 0 0 0.6rem;
    padding: 0;
    display: grid;
    /* a row no wider than the list, whatever the name */
    grid-template-columns: minmax(0, 1fr);
    gap: 0.4rem;
  }
  .file-list li {
    display: flex;
    /* a name that does not fit beside its size and button takes a line of its own before it is cut */
    flex-wrap: wrap;
    align-items: center;
    gap: 0.6rem;
    padding: 0.5rem 0.5rem 0.5rem 0.8rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_bg);
  }
  .file-list .file-name {
    flex: 1 1 auto;
  }
  /* a touch screen has nothing to drag a file from: the hint says only what can be chosen */
  @media (hover: none) and (pointer: coarse) {
    .drop-words {
      display: none;
    }
  }
  .file-size {
    color: var(--_muted);
    font-size: 0.85rem;
    white-space: nowrap;
  }
  .file-list button {
    min-height: 2.25rem;
    padding: 0.25rem 0.7rem;
  }
  .progress {
    display: grid;
    gap: 0.3rem;
    margin-block: var(--_space) calc(var(--_space) * 0.5);
  }
  progress {
    inline-size: 100%;
    block-size: 0.6rem;
    accent-color: var(--_accent);
  }
  a.download {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 2.75rem;
    padding: 0.6rem 1.2rem;
    border-radius: calc(var(--_radius) * 0.8);
    background: var(--_accent);
    color: var(--_on-accent);
    font-weight: 600;
    text-decoration: none;
    /* centred like every button, on two lines too */
    text-align: center;
  }
  /* the signed file's name on a line of its own under its button, at every width */
  .signed-name {
    display: flex;
    align-items: center;
    min-inline-size: 0;
    flex: 1 1 100%;
  }
  .field-error {
    margin-block-start: 0.4rem;
  }
`;
