import { EsignError } from '../../client/errors.js';
import type { MessageFormat } from '../../protocol/types.js';
import { checkMessage } from '../../protocol/message.js';

/**
 * A host's Mobile-ID phone message and its format, checked before anything is sent (loaded only
 * when a host sets a message): one that does not fit is the host's setup, not the person's input.
 */
export function phoneMessage(message: string, format: MessageFormat | ''): { message: string; message_format: MessageFormat } {
  const check = checkMessage(message, format || undefined);
  if (check.problem) {
    throw new EsignError('misconfigured', `The phone message does not fit ${check.format} (${check.length}/${check.limit})`, { field: 'message' });
  }
  return { message, message_format: check.format };
}
