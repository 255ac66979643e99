import { Component, CUSTOM_ELEMENTS_SCHEMA, signal } from '@angular/core';
import type { AuthenticatedDetail, SignedDetail } from 'esign-elements';

/**
 * A login, then a PDF signature, with the elements themselves. The events are signals for the
 * page only: the host's server learns the results from the proxy's onResult.
 */
@Component({
  selector: 'app-root',
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <main style="max-width: 560px; margin: 0 auto; padding: 16px; font-family: system-ui">
      <h1>Angular</h1>
      <section>
        <h2>Log in</h2>
        <esign-identify endpoint="/esign" [channels]="['smartid', 'mobile']" (esign-authenticated)="authenticated($event)"></esign-identify>
        @if (person(); as who) {
          <p id="welcome">Welcome, {{ who.name }} {{ who.surname }}</p>
        }
      </section>
      <section>
        <h2>Sign a PDF</h2>
        <input id="pdf" type="file" accept=".pdf" (change)="chosen($event)" />
        <esign-sign endpoint="/esign" [files]="files()" (esign-signed)="signedFile($event)"></esign-sign>
        @if (signed()) {
          <p id="signed">Signed: {{ signed() }}</p>
        }
      </section>
    </main>
  `,
})
export class AppComponent {
  readonly person = signal<AuthenticatedDetail['person'] | null>(null);
  readonly files = signal<File[]>([]);
  readonly signed = signal('');

  authenticated(event: Event): void {
    this.person.set((event as CustomEvent<AuthenticatedDetail>).detail.person);
  }

  signedFile(event: Event): void {
    this.signed.set((event as CustomEvent<SignedDetail>).detail.file.name);
  }

  chosen(event: Event): void {
    this.files.set([...((event.target as HTMLInputElement).files ?? [])]);
  }
}
