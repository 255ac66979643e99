import { html, isServer, nothing, type PropertyDeclarations } from 'lit';
import type { StringPart } from '../../i18n/index.js';
import { mobileHashSign, smartIdHashSign } from '../../protocol/operations.js';
import { EsignError } from '../../client/errors.js';
import type { Country, HashAlgorithm, HashCountry } from '../../protocol/types.js';
import { controls } from '../../internal/element/controls.styles.js';
import { EsignSessionElement } from '../../internal/session/session-element.js';
import { sessionStyles } from '../../internal/session/session.styles.js';
import { theme } from '../../internal/element/theme.js';
import { HASH_HEX_LENGTH, isAscii } from '../../internal/validation/hash.js';
import { EsignPersonForm } from '../person-form/person-form.js';
import type { SessionSpec } from '../../internal/session/session-controller.js';
import type { Dependency } from '../../internal/element/define.js';
import { signerOf, signerProperty, type SignerPerson } from '../../internal/documents/signer.js';
import type { HashSignedDetail } from './events.js';
import { hashFits, hashToHex, type HashInput } from './hash.js';
import { readonlyStyles } from '../../internal/element/readonly.styles.js';
import { hashSignStyles } from './hash-sign.styles.js';
import { isText, requireAnswer } from '../../internal/data/answer-check.js';
import { isOneOf, required } from '../../protocol/checks.js';

const HASH_COUNTRIES: HashCountry[] = ['LT', 'EE'];

/**
 * Signs a precomputed SHA256 or SHA512 hash with Smart-ID or Mobile-ID (Lithuania and
 * Estonia). The hash may be given as hex, base64 or bytes.
 *
 * @fires esign-started - The session exists and the control code is known.
 * @fires esign-hash-signed - The hash is signed: `signatureValue`, the hash and its algorithm.
 * @fires esign-cancelled - The person or the host cancelled.
 * @fires esign-error - The session failed; the detail says why and whether trying again can help.
 * @csspart base - The frame.
 * @csspart subject - What is signed, in the site's words (its `subject`, or the `subject` slot).
 * @csspart details - The technical details, the hash inside, closed: shown when the site names what is signed.
 * @csspart hash - The hash shown to the person, in groups of four characters.
 * @csspart note - Which personal codes can sign here, on a Latvian page (hash signing serves Lithuania and Estonia).
 * @csspart submit - The submit button.
 * @csspart retry - The try-again button.
 * @csspart connection - While waiting: that the connection is lost and the element keeps trying, or that it is back.
 * @csspart retry-wait - The minutes left after a rate limit, in place of the try-again button.
 * @csspart field - Each field's wrapper of the person form (forwarded).
 * @csspart input - The person form's inputs and select (forwarded).
 * @csspart error - A field's error message (forwarded).
 * @csspart code - The control code's digits (forwarded).
 * @csspart instruction - What to do on the phone (forwarded).
 * @csspart warning - What to do when the phone shows another code (forwarded).
 * @csspart confirming - What the person confirms, beside the code while they do (forwarded).
 * @csspart status - The waiting and result box (forwarded).
 * @csspart cancel - The cancel button (forwarded).
 * @slot success - Shown instead of the element's own success content (the status stays, for screen readers).
 * @slot subject - What is signed, in the site's words, when it needs more than the `subject` text.
 *
 * @tag esign-hash-sign
 */
export class EsignHashSign extends EsignSessionElement<HashSignedDetail, 'hash'> {
  static override styles = [theme, controls, sessionStyles, readonlyStyles, hashSignStyles];

  /** The form at once; the control code and the status show nothing before a session: defined with its code. */
  static dependencies: Record<string, Dependency> = {
    'esign-person-form': EsignPersonForm,
    'esign-control-code': { later: () => import('../control-code/define.js').then((entry) => entry.EsignControlCode) },
    'esign-status': { later: () => import('../status/define.js').then((entry) => entry.EsignStatus) },
  };

  static override properties: PropertyDeclarations = {
    signer: signerProperty,
    hash: { attribute: 'hash' },
    hashAlgorithm: { type: String, attribute: 'hash-algorithm' },
    subject: { type: String },
  };

  /**
   * What is signed, in the site's words ("Payment order 123"): shown above the form and while
   * waiting, the hash then under "Technical details". A person cannot check a hash; they can
   * check this.
   */
  declare subject: string;

  /** The hash: hex (attribute or property), base64, or bytes (property). */
  declare hash: HashInput | null;
  /** The algorithm as people write it: SHA-256, SHA-512. */
  get #algorithmName(): string {
    return this.hashAlgorithm.replace('SHA', 'SHA-');
  }

  /** SHA256 (default) or SHA512. */
  declare hashAlgorithm: HashAlgorithm;

  /**
   * The person logged in to the site, when the site signs only as them (the proxy's \`signer\`):
   * shown read-only and masked, with a note that the site set it. Attribute: \`code[,country[,phone]]\`.
   */
  declare signer: SignerPerson | string | null;

  protected override fixedPerson(): SignerPerson | null {
    return signerOf(this.signer);
  }

  /** The form at rest says more than the person form: the hash, in the session part. */
  protected override formWords: readonly StringPart[] = ['form', 'session'];

  constructor() {
    super();
    this.subject = '';
    this.hash = null;
    this.signer = null;
    this.hashAlgorithm = 'SHA256';
    this.countries = [...HASH_COUNTRIES];
  }

  /** The hash as lowercase hex, or null when it cannot be read. */
  get hashHex(): string | null {
    return hashToHex(this.hash);
  }

  protected override offeredCountries(): Country[] {
    const offered: Country[] = this.countries.filter((c) => isOneOf(HASH_COUNTRIES, c));
    return offered.length ? offered : HASH_COUNTRIES;
  }

  protected override async checkInputs(): Promise<void> {
    this.inputError = '';
    const hex = this.hashHex;
    // the hash is the site's, never the person's: a wrong one is the site's setup (said to the
    // developer in the console, the person told to contact the site), not a field to correct
    if (!hex) throw new EsignError('misconfigured', 'esign-hash-sign has no hash to sign: set its hash property', { field: 'hash', retryable: false });
    if (!hashFits(hex, this.hashAlgorithm)) {
      throw new EsignError(
        'misconfigured',
        `esign-hash-sign: a ${this.#algorithmName} hash is ${HASH_HEX_LENGTH[this.hashAlgorithm] / 2} bytes; this one is ${hex.length / 2}`,
        {
          field: 'hash',
          retryable: false,
        },
      );
    }
  }

  protected readonly session: SessionSpec<'hash', HashSignedDetail> = {
    kind: 'hash',
    start: (client, channel, person, signal) => {
      const country = person.country;
      // the form offers hash signing's countries only
      if (!isOneOf(HASH_COUNTRIES, country)) throw new EsignError('invalid-input', this.t('error.invalid-input'), { field: 'country' });
      const common = {
        hash: required(this.hashHex),
        hash_algorithm: this.hashAlgorithm,
        code: person.code,
        country,
        ...(this.message ? { message: this.message } : {}),
      };
      if (channel === 'smartid') {
        if (this.message && !isAscii(this.message)) {
          throw new EsignError('misconfigured', 'The Smart-ID hash signing message must be ASCII', { field: 'message' });
        }
        return client.call(smartIdHashSign, common, {}, { signal });
      }
      return client.call(mobileHashSign, { ...common, phone: required(person.phone) }, {}, { signal });
    },
    finish: (raw, { channel, token }) => {
      requireAnswer(isText(raw.signature_value), 'signature');
      const detail: HashSignedDetail = {
        signatureValue: raw.signature_value,
        hash: required(this.hashHex),
        hashAlgorithm: this.hashAlgorithm,
        token,
        channel,
        raw,
      };
      return detail;
    },
    announce: (detail) => this.emit('esign-hash-signed', detail),
    keep: () => {
      const hex = this.hashHex;
      return hex ? { hash: hex, hashAlgorithm: this.hashAlgorithm } : undefined;
    },
    subject: () => this.subject || (isServer ? '' : (this.querySelector('[slot="subject"]')?.textContent ?? '').trim()),
    // after a reload the signed hash is the one the session was started with, whatever the page sets again
    restore: (extra) => {
      if (extra['hash']) this.hash = extra['hash'];
      if (extra['hashAlgorithm'] === 'SHA256' || extra['hashAlgorithm'] === 'SHA512') this.hashAlgorithm = extra['hashAlgorithm'];
    },
  };

  protected successMessage(): string {
    return this.t('hash.success');
  }

  protected cancelledMessage(): string {
    return this.t('sign.cancelled');
  }

  protected submitLabel(): string {
    return this.t('hash.submit');
  }

  /** Whether the host put its words in the `subject` slot (not known while rendered on a server). */
  #subjectSlotted(): boolean {
    return !isServer && this.querySelector('[slot="subject"]') !== null;
  }

  protected override renderEndSubject() {
    return this.subject ? html`<p class="subject" part="subject">${this.subject}</p>` : nothing;
  }

  protected override renderInputs() {
    const hex = this.hashHex;
    const named = this.subject !== '' || this.#subjectSlotted();
    // a Latvian page's country would be Latvia, which hash signing does not serve: said, not silently changed
    const note = this.language === 'lv' ? html`<p class="note" part="note">${this.t('hash.countries')}</p>` : nothing;
    const value = html`<dl>
      <dt>${this.t('hash.label', { algorithm: this.#algorithmName })}</dt>
      <dd class="readonly-value" part="hash">${hex ? groupsOf(hex).map((group) => html`<span class="group">${group}</span>`) : '—'}</dd>
    </dl>`;
    // named by the site: its words first, the hash behind "Technical details"; else the hash is what is shown
    return html`${named ? html`<p class="subject" part="subject"><slot name="subject">${this.subject}</slot></p>` : nothing}
      ${note}
      ${
        named
          ? html`<details class="hash" part="details">
            <summary>${this.t('hash.details')}</summary>
            ${value}
          </details>`
          : html`<div class="hash">${value}</div>`
      }
      ${this.inputError ? html`<p class="field-error" role="alert">${this.inputError}</p>` : nothing}`;
  }
}

/** A hash in groups of four characters, as people compare long codes (copied, it has no spaces). */
function groupsOf(hex: string): string[] {
  return hex.match(/.{1,4}/g) ?? [];
}
