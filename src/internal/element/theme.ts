import { css } from 'lit';

/**
 * Theme tokens shared by every element. Hosts theme through the public `--esign-*`
 * custom properties; elements read only the private `--_*` ones derived here. Light and
 * dark follow the page's `color-scheme` (inherited: a page that declares none is light), or the
 * `theme` attribute (`light` / `dark`) of an element.
 * The public properties are documented on EsignElement, so every element's manifest lists them.
 */
export const theme = css`
  :host {
    /* no color-scheme here: it is inherited, so the element follows the page's (or theme=) */
    --_fg: var(--esign-color-text, light-dark(#1b1f24, #e8eaed));
    --_muted: var(--esign-color-text-muted, light-dark(#515a64, #aab3bd));
    --_bg: var(--esign-color-surface, light-dark(#ffffff, #16191d));
    --_bg-subtle: var(--esign-color-surface-subtle, light-dark(#f3f5f7, #20242a));
    --_border: var(--esign-color-border, light-dark(#b8c1cb, #4a535d));
    /* the boundary of what takes input (fields, choices, the drop zone): 3:1 against the surfaces */
    --_field: var(--esign-color-field-border, light-dark(#7b8591, #727c87));
    --_accent: var(--esign-color-accent, light-dark(#0a58a6, #7ab8ff));
    --_on-accent: var(--esign-color-on-accent, light-dark(#ffffff, #0a1a2c));
    --_danger: var(--esign-color-danger, light-dark(#b42318, #ff9b91));
    --_success: var(--esign-color-success, light-dark(#17703a, #7ee29a));
    /* a state that recovers by itself (the connection lost while waiting): amber, not an error's red */
    --_warning: var(--esign-color-warning, light-dark(#b45309, #f5b453));
    --_focus: var(--esign-color-focus, light-dark(#0a58a6, #a8d1ff));
    --_radius: var(--esign-radius, 10px);
    --_font: var(--esign-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_space: var(--esign-space, 1rem);
    display: block;
    font-family: var(--_font);
    color: var(--_fg);
    line-height: 1.5;
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  :host([hidden]) {
    display: none !important;
  }
  :focus-visible {
    outline: 3px solid var(--_focus);
    outline-offset: 2px;
  }
  @media (prefers-reduced-motion: reduce) {
    *,
    *::before,
    *::after {
      animation-duration: 0.01ms !important;
      animation-iteration-count: 1 !important;
      transition-duration: 0.01ms !important;
    }
  }
`;
