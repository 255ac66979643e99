import { html } from 'lit';
import type { StringKey } from '../i18n/index.js';
import { formatSize } from './file-picker.js';

/** How far a document has come: read into the request (`sending` unset), or sent up with its bytes. */
export interface Transfer {
  /** 0 to 1. */
  fraction: number;
  /** The documents' bytes sent so far and their total, once the request is on its way. */
  sending?: { sent: number; total: number };
}

/**
 * The bar under a document on its way: "Preparing the document…" while it is read, then "Sending
 * the document: 3.1 MB of 20 MB". Its words name the bar; they are not a live region, so a screen
 * reader is not told every step (the button says the element is busy).
 */
export function transferProgress(transfer: Transfer, t: (key: StringKey, params?: Record<string, string>) => string, language: string) {
  const { sending } = transfer;
  const label = sending ? t('sign.sending', { sent: formatSize(sending.sent, language), size: formatSize(sending.total, language) }) : t('sign.encoding');
  return html`<div class="progress" part="progress">
    <span id="progress-label">${label}</span>
    <progress aria-labelledby="progress-label" max="100" value=${Math.round(transfer.fraction * 100)}></progress>
  </div>`;
}

/** The documents' bytes sent, told from the request's own (a base64 body is a third larger than its files). */
export function documentsSent(sent: number, bodyTotal: number, documentsTotal: number): Transfer {
  const fraction = bodyTotal > 0 ? Math.min(1, sent / bodyTotal) : 1;
  return { fraction, sending: { sent: Math.round(fraction * documentsTotal), total: documentsTotal } };
}
