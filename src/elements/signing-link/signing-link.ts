import { html, nothing, type PropertyDeclarations } from 'lit';
import { generateTemporarySigningLink } from '../../protocol/operations.js';
import { readTemporarySigningLinks } from '../../client/temporary-links.js';
import { EsignError } from '../../client/errors.js';
import type { TemporarySignerInput, TemporarySigningLink } from '../../protocol/types.js';
import type { StringKey } from '../../i18n/index.js';
import { CopyController } from '../../internal/element/copy-controller.js';
import { EsignDocumentElement } from '../../internal/documents/document-element.js';
import { EMAIL, isHttpUrl, textField } from '../../internal/data/form-fields.js';
import { personalCodeCountries } from '../../internal/validation/personal-code.js';
import { normalizePhone } from '../../internal/validation/phone.js';
import type { SigningLinkCreatedDetail } from './events.js';
import { dateTimeWithZone } from '../../internal/data/date-time.js';
import { textOrNothing } from '../../internal/element/text-or-nothing.js';
import { valueOf } from '../../internal/element/event-value.js';

interface LinkSigner {
  name: string;
  surname: string;
  signatureType: string;
  phone: string;
  code: string;
  email: string;
}

const emptyLinkSigner = (): LinkSigner => ({ name: '', surname: '', signatureType: '', phone: '', code: '', email: '' });

type Problems = Record<string, StringKey>;

/**
 * Creates a temporary signing link for a stored document: validity in minutes, optional
 * deletion of the document, callback URL, page language and optional signers; shows the
 * link with its expiry in the person's locale, with a copy button.
 *
 * @fires esign-signing-link-created - The link exists: its URL and expiry.
 * @fires esign-error - Creating the link failed.
 * @csspart base - The frame.
 * @csspart submit - The create button.
 * @csspart link - The created link.
 *
 * @tag esign-signing-link
 */
export class EsignSigningLink extends EsignDocumentElement {
  static override properties: PropertyDeclarations = {
    expireAfter: { type: Number, attribute: 'expire-after' },
    deleteAfter: { type: Number, attribute: 'delete-document-after' },
    callbackUrl: { type: String, attribute: 'callback-url' },
    pageLanguage: { type: String, attribute: 'page-language' },
    _signers: { state: true },
    _submitted: { state: true },
    _links: { state: true },
    _expireText: { state: true },
    _deleteText: { state: true },
  };

  /** Minutes the link works; default 30. */
  declare expireAfter: number;
  /** Minutes after which the document is deleted; 0 for never. */
  declare deleteAfter: number;
  declare callbackUrl: string;
  /** lt or en; follows the UI language when unset. */
  declare pageLanguage: 'lt' | 'en' | '';
  declare _signers: LinkSigner[];
  declare _submitted: boolean;
  declare _links: TemporarySigningLink[] | null;
  declare _expireText: string | null;
  declare _deleteText: string | null;

  readonly #copy = new CopyController(this);

  constructor() {
    super();
    this.expireAfter = 30;
    this.deleteAfter = 0;
    this.callbackUrl = '';
    this.pageLanguage = '';
    this._signers = [];
    this._submitted = false;
    this._links = null;
    this._expireText = null;
    this._deleteText = null;
  }

  get #expireText(): string {
    return this._expireText ?? String(this.expireAfter || 30);
  }

  get #deleteText(): string {
    return this._deleteText ?? (this.deleteAfter ? String(this.deleteAfter) : '');
  }

  #problems(): Problems {
    const problems: Problems = {};
    const minutes = (text: string) => (/^\d+$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : null);
    const expire = minutes(this.#expireText);
    if (expire === null) problems['expire'] = 'field.minutes';
    if (this.#deleteText.trim()) {
      const remove = minutes(this.#deleteText);
      if (remove === null) problems['delete'] = 'field.minutes';
      else if (expire !== null && remove < expire) problems['delete'] = 'slink.delete-short';
    }
    this._signers.forEach((s, i) => {
      // the service lists and removes a temporary signer by name and surname: both are needed
      if (!s.name.trim()) problems[`s${i}-name`] = 'signer.name-empty';
      if (!s.surname.trim()) problems[`s${i}-surname`] = 'signer.surname-empty';
      if (s.email.trim() && !EMAIL.test(s.email.trim())) problems[`s${i}-email`] = 'field.email';
      if (s.phone.trim() && !normalizePhone(s.phone).valid) problems[`s${i}-phone`] = 'form.phone.format';
      if (s.code.trim() && personalCodeCountries(s.code).length === 0) problems[`s${i}-code`] = 'form.code.check-digit';
    });
    return problems;
  }

  #errorOf(id: string): string | undefined {
    if (!this._submitted) return undefined;
    const problem = this.#problems()[id];
    if (!problem) return undefined;
    return this.t(problem, { minutes: this.#expireText });
  }

  /** Creates the link; resolves with the links, rejects with an EsignError. */
  protected override failedHeading(action: string): string {
    return action === 'create' ? this.t('failed.link') : '';
  }

  async create(): Promise<SigningLinkCreatedDetail> {
    this.requireDocument();
    this._submitted = true;
    const first = Object.keys(this.#problems())[0];
    if (first) {
      void this.focusLater(`#${first}`);
      throw new EsignError('invalid-input', this.t('error.invalid-input'), { field: first });
    }
    // where the signing page sends the person back: the host's, not the person's (no field in the form)
    if (!isHttpUrl(this.callbackUrl.trim())) this.setupProblem('callbackUrl', 'create');
    const documentId = this.documentId;
    const signers: TemporarySignerInput[] = this._signers.map((s) => {
      const phone = normalizePhone(s.phone);
      return {
        name: s.name.trim(),
        surname: s.surname.trim(),
        ...(s.signatureType ? { signature_type: s.signatureType } : {}),
        ...(phone.valid ? { phone_number: phone.phone } : {}),
        ...(s.code.trim() ? { personal_code: s.code.trim() } : {}),
        ...(s.email.trim() ? { email: s.email.trim() } : {}),
      };
    });
    const raw = await this.act('create', (signal) =>
      this.client.call(
        generateTemporarySigningLink,
        {
          document_id: documentId,
          callback_url: this.callbackUrl.trim(),
          expire_after: Number(this.#expireText),
          ...(this.#deleteText.trim() ? { delete_document_after: Number(this.#deleteText) } : {}),
          language: this.pageLanguage || (this.language === 'lt' ? 'lt' : 'en'),
          ...(signers.length ? { signers } : {}),
        },
        {},
        { signal },
      ),
    );
    const links = readTemporarySigningLinks(raw);
    this._links = links;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the form does not create a link without both names
    const named = signers.map((s) => ({ name: s.name as string, surname: s.surname as string }));
    const detail: SigningLinkCreatedDetail = { documentId, links, signers: named, raw };
    this.emit('esign-signing-link-created', detail);
    void this.focusLater('.done');
    return detail;
  }

  #again(): void {
    this._links = null;
    this._submitted = false;
    void this.focusLater('#expire');
  }

  #change(index: number, patch: Partial<LinkSigner>): void {
    this._signers = this._signers.map((s, i) => (i === index ? { ...s, ...patch } : s));
  }

  #renderSigner(signer: LinkSigner, index: number) {
    const busy = this.busy !== '';
    const id = (field: string) => `s${index}-${field}`;
    return html`<fieldset>
      <legend>${this.t('signer.legend', { n: index + 1 })}</legend>
      <div class="grid">
        ${textField({ id: id('name'), label: this.t('signer.name'), value: signer.name, error: this.#errorOf(id('name')), disabled: busy, onInput: (name) => this.#change(index, { name }) })}
        ${textField({ id: id('surname'), label: this.t('signer.surname'), value: signer.surname, error: this.#errorOf(id('surname')), disabled: busy, onInput: (surname) => this.#change(index, { surname }) })}
      </div>
      <div class="field">
        <label for=${id('type')}>${this.t('slink.signature-type')}</label>
        <select id=${id('type')} .value=${signer.signatureType} ?disabled=${busy} @change=${(e: Event) => this.#change(index, { signatureType: valueOf(e) })}>
          <option value="">—</option>
          <option value="smartid">${this.t('channel.smartid')}</option>
          <option value="mobileid">${this.t('channel.mobile')}</option>
        </select>
      </div>
      <div class="grid">
        ${textField({ id: id('phone'), label: this.t('slink.phone'), type: 'tel', value: signer.phone, error: this.#errorOf(id('phone')), disabled: busy, onInput: (phone) => this.#change(index, { phone }) })}
        ${textField({ id: id('code'), label: this.t('slink.code'), value: signer.code, error: this.#errorOf(id('code')), disabled: busy, onInput: (code) => this.#change(index, { code }) })}
      </div>
      ${textField({ id: id('email'), label: this.t('slink.email'), type: 'email', value: signer.email, error: this.#errorOf(id('email')), disabled: busy, onInput: (email) => this.#change(index, { email }) })}
      <div class="row-actions">
        <button type="button" class="secondary small" ?disabled=${busy} @click=${() => {
          this._signers = this._signers.filter((_, i) => i !== index);
          void this.focusLater('[part="add-signer"]');
        }}>${this.t('signer.remove', { n: index + 1 })}</button>
      </div>
    </fieldset>`;
  }

  #renderLinks(links: TemporarySigningLink[]) {
    return html`<p class="message done" tabindex="-1" role="status"><span class="text">${this.t('slink.created')}</span></p>
      <ul class="links">
        ${links.map(
          (link, i) => html`<li>
            <a class="url" part="link" href=${link.url} target="_blank" rel="noopener">${link.url}</a>
            <span class="muted">${this.t('slink.valid-until', { time: dateTimeWithZone(link.validUntil, this.language) })}</span>
            <div class="inline">
              <button type="button" class="secondary small" @click=${() => this.#copy.copy(link.url, String(i))}>${this.t('link.copy')}</button>
              <span role="status" class="muted">${textOrNothing(this.#copy.status(String(i), this.t('link.copied'), this.t('link.copy-failed')))}</span>
            </div>
          </li>`,
        )}
      </ul>
      <div class="actions"><button type="button" class="secondary" @click=${this.#again}>${this.t('slink.another')}</button></div>`;
  }

  override render() {
    if (this._links) return html`<section class="base" part="base">${this.#renderLinks(this._links)}</section>`;
    const busy = this.busy !== '';
    const language = this.pageLanguage || (this.language === 'lt' ? 'lt' : 'en');
    // the service's signing pages speak Lithuanian and English: on a page in another language, said why
    const hinted = this.language !== 'lt' && this.language !== 'en';
    return html`<section class="base" part="base">
      <form novalidate aria-busy=${busy ? 'true' : 'false'} @submit=${(e: Event) => {
        e.preventDefault();
        this.create().catch(() => undefined);
      }}>
        <div class="grid">
          ${textField({ id: 'expire', label: this.t('slink.expire'), type: 'number', min: 1, value: this.#expireText, error: this.#errorOf('expire'), disabled: busy, onInput: (v) => (this._expireText = v) })}
          ${textField({ id: 'delete', label: this.t('slink.delete'), type: 'number', min: 1, value: this.#deleteText, error: this.#errorOf('delete'), disabled: busy, onInput: (v) => (this._deleteText = v) })}
        </div>
        <div class="field">
          <label for="language">${this.t('slink.language')}</label>
          ${hinted ? html`<span class="hint" id="language-hint">${this.t('slink.language-hint')}</span>` : nothing}
          <select id="language" aria-describedby=${hinted ? 'language-hint' : nothing} .value=${language} ?disabled=${busy} @change=${(e: Event) => (this.pageLanguage = valueOf(e) === 'en' ? 'en' : 'lt')}>
            <option value="lt" ?selected=${language === 'lt'}>${this.t('slink.lang.lt')}</option>
            <option value="en" ?selected=${language === 'en'}>${this.t('slink.lang.en')}</option>
          </select>
        </div>
        <h3 class="signers-title">${this.t('slink.signers')}</h3>
        ${this._signers.map((s, i) => this.#renderSigner(s, i))}
        <div><button type="button" class="secondary" part="add-signer" ?disabled=${busy} @click=${() => {
          this._signers = [...this._signers, emptyLinkSigner()];
          void this.focusLater(`#s${this._signers.length - 1}-name`);
        }}>${this.t('signer.add')}</button></div>
        ${this.renderFailure()}
        <div class="actions">
          <button class="primary" part="submit" type="submit" ?disabled=${busy || !this.documentId}>${busy ? this.t('slink.creating') : this.t('slink.submit')}</button>
        </div>
      </form>
    </section>`;
  }
}
