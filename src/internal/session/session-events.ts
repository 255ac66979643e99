import type { Channel, SessionKind } from '../../protocol/types.js';

/** `esign-started`: the session exists and its control code is known. */
export interface StartedDetail {
  token: string;
  channel: Channel;
  controlCode: string;
  kind: SessionKind;
  /** Set when the page was reloaded while the person confirmed, and this is the same session followed on. */
  resumed?: boolean;
}

/** `esign-cancelled`: the person or the host stopped the session (removed at the service). */
export interface CancelledDetail {
  token: string;
  channel: Channel;
}
