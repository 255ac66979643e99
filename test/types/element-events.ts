// An element a host builds on the package's session element, type-checked against the built
// package: an event's detail is typed by its name. Each @ts-expect-error must stay an error.
import { EsignSessionElement, type SessionSpec } from 'esign-elements';

export abstract class LoggedSign extends EsignSessionElement<{ ok: true }, 'sign'> {
  // a kind of session is one object; its finished answer is typed by the kind
  protected readonly session: SessionSpec<'sign', { ok: true }> = {
    kind: 'sign',
    start: (client, channel, person, signal) => Promise.reject(new Error(`${client.timeoutMs} ${channel} ${person.code} ${String(signal.aborted)}`)),
    finish: (raw) => {
      void raw.file.name;
      // @ts-expect-error: a signing's answer holds no personal code (a login's does)
      void raw.code;
      return { ok: true };
    },
    // said once the session is a success: the detail as finish made it
    announce: (detail) => {
      const ok: true = detail.ok;
      void ok;
    },
  };

  announce(): void {
    this.emit('esign-cancelled', { token: 'abc', channel: 'smartid' });
    // @ts-expect-error: a cancel's detail has no reason
    this.emit('esign-cancelled', { token: 'abc', channel: 'smartid', reason: 'no' });
    // @ts-expect-error: an error's detail needs its code and message
    this.emit('esign-error', { token: 'abc' });
    // @ts-expect-error: no such event of the package
    this.emit('esign-nothing', {});
  }
}
