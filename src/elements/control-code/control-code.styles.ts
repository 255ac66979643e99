import { css } from 'lit';

export const controlCodeStyles = css`
  :host {
    display: block;
    text-align: center;
  }
  .box {
    border: 1px solid var(--_border);
    background: var(--_bg-subtle);
    border-radius: var(--_radius);
    padding: var(--_space);
  }
  /* focused as a session starts: one calm ring on what the person compares */
  .box:focus {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .label {
    color: var(--_muted);
    font-size: 0.9rem;
    margin: 0;
  }
  .digits {
    font-size: clamp(2.4rem, 12vw, 3.4rem);
    font-weight: 700;
    letter-spacing: 0.35em;
    margin: 0.2rem 0 0.4rem 0.35em;
    font-variant-numeric: tabular-nums;
    line-height: 1.1;
  }
  /* what is being confirmed, beside the code, as large as the instruction */
  .confirming {
    margin: 0 auto 0.5rem;
    max-inline-size: 32rem;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .instruction {
    margin: 0 auto;
    max-inline-size: 32rem;
  }
  /* what keeps a person from a phishing site: as large as the instruction, and bold (never the quietest line) */
  .warning {
    margin: 0.5rem auto 0;
    max-inline-size: 32rem;
    color: var(--_fg);
    font-weight: 600;
  }
`;
