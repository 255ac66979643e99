import { html, nothing, type PropertyDeclarations } from 'lit';
import type { StringPart } from '../../i18n/index.js';
import { mobileHashSign, smartIdHashSign } from '../../protocol/operations.js';
import { EsignError } from '../../client/errors.js';
import type { Country, HashAlgorithm, HashCountry } from '../../protocol/types.js';
import { controls } from '../../internal/controls.styles.js';
import { EsignSessionElement } from '../../internal/session-element.js';
import { sessionStyles } from '../../internal/session.styles.js';
import { theme } from '../../internal/theme.js';
import { HASH_HEX_LENGTH, isAscii } from '../../internal/validation/hash.js';
import { EsignPersonForm } from '../person-form/person-form.js';
import type { SessionSpec } from '../../internal/session-controller.js';
import type { Dependency } from '../../internal/define.js';
import { signerOf, signerProperty, type SignerPerson } from '../../internal/signer.js';
import type { HashSignedDetail } from './events.js';
import { hashFits, hashToHex, type HashInput } from './hash.js';
import { readonlyStyles } from '../../internal/readonly.styles.js';
import { hashSignStyles } from './hash-sign.styles.js';
import { isText, requireAnswer } from '../../internal/answer-check.js';
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
 * @csspart hash - The hash shown to the person.
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
 * @csspart status - The waiting and result box (forwarded).
 * @csspart cancel - The cancel button (forwarded).
 * @slot success - Shown instead of the element's own success content (the status stays, for screen readers).
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
  };

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
      throw new EsignError('misconfigured', `esign-hash-sign: a ${this.#algorithmName} hash is ${HASH_HEX_LENGTH[this.hashAlgorithm] / 2} bytes; this one is ${hex.length / 2}`, {
        field: 'hash',
        retryable: false,
      });
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
      this.emit('esign-hash-signed', detail);
      return detail;
    },
    keep: () => {
      const hex = this.hashHex;
      return hex ? { hash: hex, hashAlgorithm: this.hashAlgorithm } : undefined;
    },
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

  protected override renderInputs() {
    const hex = this.hashHex;
    return html`<dl class="hash">
        <dt>${this.t('hash.label', { algorithm: this.#algorithmName })}</dt>
        <dd class="readonly-value" part="hash">${hex ?? '—'}</dd>
      </dl>
      ${this.inputError ? html`<p class="field-error" role="alert">${this.inputError}</p>` : nothing}`;
  }
}
