// An element a host builds on the package's session element, type-checked against the built
// package: an event's detail is typed by its name. Each @ts-expect-error must stay an error.
import { EsignSessionElement } from 'esign-elements';

export abstract class LoggedSign extends EsignSessionElement<{ ok: true }, { status: string }> {
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
