import type { Channel } from '../client/caller.js';
import { EsignError } from '../client/errors.js';
import { dropRecord, readRecord, type SessionRecord } from './session-record.js';
import type { StartedDetail } from './session-events.js';
import { followSession, type RunTarget } from './session-run.js';

/** What a session element keeps of a session it may follow after a reload. */
export interface KeptSession {
  /** Where the waiting session is kept, while one is. */
  at: string | null;
  /** The session kept from before a reload, while it is followed. */
  record: SessionRecord | undefined;
  /** The kept session could no longer be alive when the page came back: said as such. */
  expired: boolean;
}

/** What following a kept session uses beyond running one: the channel it takes back, and the kind's extra. */
export interface ResumeTarget extends RunTarget {
  channel: Channel;
  restoreExtra(extra: Record<string, string>): void;
}

/**
 * Follows on the session an element was waiting for when its page went away (loaded only when
 * one is kept): the control code and waiting again, then the same events, never a second start.
 * A kept session past its end is dropped and said.
 */
export async function resumeKept(element: ResumeTarget, key: string): Promise<void> {
  const record = readRecord(key);
  if (!record || record.kind !== element.kind || element.flow.state !== 'idle') return;
  element.kept.at = key;
  element.kept.record = record;
  element.channel = record.channel;
  if (record.extra) element.restoreExtra(record.extra);
  const left = record.until - Date.now();
  if (!(left > 0)) {
    dropRecord(key);
    element.kept.at = null;
    element.kept.expired = true;
    const error = new EsignError('expired', element.t('status.resume-expired'), { retryable: true });
    element.flow.fail(error);
    element.emit('esign-error', element.errorDetail(error));
    void element.focusLater('[part="retry"]');
    return;
  }
  const channel = record.channel;
  const running = element.flow.resume({
    client: () => element.caller(),
    channel,
    status: element.statusOperation(channel),
    interval: element.pollInterval,
    timeLimit: left,
    started: { token: record.token, control_code: record.controlCode },
    since: record.since,
  });
  element.emit<StartedDetail>('esign-started', { token: record.token, channel, controlCode: record.controlCode, kind: element.kind, resumed: true });
  void element.focusLater('esign-status');
  await followSession(element, running, channel).catch(() => undefined);
}
