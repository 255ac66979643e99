import { html } from 'lit';
import type { StringKey } from '../../i18n/index.js';
import { formatSize } from './file-picker.js';

/** How far a document has come: read into the request (`sending` unset), or sent up with its bytes. */
export interface Transfer {
  /** 0 to 1. */
  fraction: number;
  /** The documents' bytes sent so far and their total, once the request is on its way. */
  sending?: { sent: number; total: number };
  /** Half or more sent of a send that has taken 10 s or more: said once more. */
  halfway?: boolean;
}

/** A send that has taken this long is said again at half way. */
const LONG_SEND_MS = 10_000;

/**
 * The bar under a document on its way: "Preparing the document…" while it is read, then "Sending
 * the document: 3.1 MB of 20 MB". Its words name the bar; they are not a live region, so a screen
 * reader is not told every step: `transferSaid` is what it is told.
 */
export function transferProgress(transfer: Transfer, t: (key: StringKey, params?: Record<string, string>) => string, language: string) {
  const { sending } = transfer;
  const label = sending ? t('sign.sending', { sent: formatSize(sending.sent, language), size: formatSize(sending.total, language) }) : t('sign.encoding');
  return html`<div class="progress" part="progress">
    <span id="progress-label">${label}</span>
    <progress aria-labelledby="progress-label" max="100" value=${Math.round(transfer.fraction * 100)}></progress>
  </div>`;
}

/**
 * The documents' bytes sent, told from the request's own (a base64 body is a third larger than its
 * files); `since` is when the send began, `now` this report's time (read as the report comes, never
 * while drawing).
 */
export function documentsSent(sent: number, bodyTotal: number, documentsTotal: number, since: number, now: number): Transfer {
  const fraction = bodyTotal > 0 ? Math.min(1, sent / bodyTotal) : 1;
  return { fraction, sending: { sent: Math.round(fraction * documentsTotal), total: documentsTotal }, halfway: fraction >= 0.5 && now - since >= LONG_SEND_MS };
}

/**
 * What a screen reader is told of a document on its way (in a status region): once as the send
 * begins, "Sending the document (20 MB)…", and once more at half way when it has taken 10 s or more.
 */
export function transferSaid(transfer: Transfer | null, t: (key: StringKey, params?: Record<string, string>) => string, language: string): string {
  const sending = transfer?.sending;
  if (!sending) return '';
  const size = formatSize(sending.total, language);
  return t(transfer.halfway ? 'sign.sending-half' : 'sign.sending-start', { size });
}
