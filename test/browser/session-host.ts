import { LitElement, html } from 'lit';
import type { ProxyCaller } from '../../src/client/caller.js';
import type { Channel } from '../../src/protocol/types.js';
import type { Language } from '../../src/i18n/index.js';
import type { SessionController, SessionElement } from '../../src/internal/session/session-controller.js';

/**
 * A host with only what the session controller reads of a session element (and the caller a test
 * gives it); it records every state it was drawn in, with the connection and a return to the page
 * while waiting, in order, without repeats.
 */
export class RecordingSessionHost extends LitElement implements SessionElement {
  endpoint = '/esign';
  language: Language = 'en';
  requestTimeout = 0;
  pollInterval = 100;
  timeLimit = 0;
  noResume = false;
  channels: Channel[] = [];
  channel: Channel = 'smartid';
  caller: ProxyCaller | undefined;
  drawn: string[] = [];
  controller: SessionController<'login', string> | undefined;

  t(key: string): string {
    return key;
  }

  protected override render() {
    const state = this.controller?.state;
    const waiting = state === 'waiting' ? this.controller : undefined;
    const seen = state ? `${state}${waiting?.connection ? `:${waiting.connection}` : ''}${waiting?.cameBack ? ':back-on-page' : ''}` : '';
    if (seen && this.drawn.at(-1) !== seen) this.drawn.push(seen);
    return html`${seen}`;
  }
}
if (!customElements.get('recording-session-host')) customElements.define('recording-session-host', RecordingSessionHost);
