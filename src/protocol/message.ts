import type { MessageFormat } from './types.js';

const GSM7_BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Characters of the GSM-7 extension table: each takes two septets. */
const GSM7_EXTENSION = '^{}\\[~]|€\f';

const BASIC = new Set(GSM7_BASIC);
const EXTENSION = new Set(GSM7_EXTENSION);

/** Longest message the service takes in each format. */
export const MESSAGE_LIMITS: Record<MessageFormat, number> = { 'GSM-7': 40, 'UCS-2': 20 };

export function isGsm7(text: string): boolean {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return false;
  return true;
}

/** Length as the format counts it: septets for GSM-7 (extension characters count 2), UTF-16 units for UCS-2. */
export function messageLength(text: string, format: MessageFormat): number {
  if (format === 'UCS-2') return text.length;
  let length = 0;
  for (const ch of text) length += EXTENSION.has(ch) ? 2 : 1;
  return length;
}

export type MessageProblem = 'not-gsm7' | 'too-long';

export interface MessageCheck {
  format: MessageFormat;
  length: number;
  limit: number;
  problem?: MessageProblem;
}

/**
 * Checks a phone-screen message. Without a chosen format the format follows the text:
 * GSM-7 when every character fits, UCS-2 otherwise.
 */
export function checkMessage(text: string, chosen?: MessageFormat): MessageCheck {
  const format = chosen ?? (isGsm7(text) ? 'GSM-7' : 'UCS-2');
  const length = messageLength(text, format);
  const limit = MESSAGE_LIMITS[format];
  const check: MessageCheck = { format, length, limit };
  if (format === 'GSM-7' && !isGsm7(text)) check.problem = 'not-gsm7';
  else if (length > limit) check.problem = 'too-long';
  return check;
}
