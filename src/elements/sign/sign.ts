import { html, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import type { StringPart } from '../../i18n/index.js';
import { camelCased } from '../../protocol/camel.js';
import { mobileSign, smartIdSign } from '../../protocol/operations.js';
import { EsignError } from '../../client/errors.js';
import type { CertificateLevel, FileContainer, FileType, SignaturePage, SignaturePosition } from '../../protocol/types.js';
import { blobToBase64, base64ToBlob } from '../../internal/data/base64.js';
import { controls } from '../../internal/element/controls.styles.js';
import { fileName } from '../../internal/documents/file-name.js';
import { filePicker, formatSize } from '../../internal/documents/file-picker.js';
import { documentsSent, transferProgress, transferSaid, type Transfer } from '../../internal/documents/transfer-progress.js';
import { sendWithProgress } from '../../client/upload-progress.js';
import { EsignSessionElement } from '../../internal/session/session-element.js';
import { sessionStyles } from '../../internal/session/session.styles.js';
import { theme } from '../../internal/element/theme.js';
import type { SessionSpec } from '../../internal/session/session-controller.js';
import { EsignPersonForm } from '../person-form/define.js';
import { EsignControlCode } from '../control-code/define.js';
import { EsignDocumentPreview } from '../document-preview/define.js';
import { EsignStatus } from '../status/define.js';
import type { Dependency } from '../../internal/element/define.js';
import { signerOf, signerProperty, type SignerPerson } from '../../internal/documents/signer.js';
import type { SignedDetail } from './events.js';
import {
  FILE_ACCEPT,
  FILE_TYPES,
  MIME_TYPES,
  extensionOf,
  resolveType,
  toSignFiles,
  type SignFile,
  type SignInput,
} from '../../internal/documents/sign-files.js';
import { signStyles } from './sign.styles.js';
import { filePickerStyles } from '../../internal/documents/file-picker.styles.js';
import { isString, isText, requireAnswer } from '../../internal/data/answer-check.js';
import { isOneOf, required } from '../../protocol/checks.js';
import { dateTimeWithZone } from '../../internal/data/date-time.js';
import { DETAIL_SEPARATOR } from '../../internal/session/session-words.js';

/** The preview says its own failures; they are not the signing's, so they stay inside. */
const stopHere = (event: Event) => event.stopPropagation();

const TYPE_NAMES: Record<FileType, string> = { pdf: 'PDF', asice: 'ASiC-E', bdoc: 'BDOC', adoc: 'ADOC' };

/**
 * Signs a document (pdf, asice, adoc, bdoc) with Smart-ID or Mobile-ID. The document comes
 * from the host (`files`) or is picked or dropped by the person; several files go into one
 * container. A large file shows its progress as it is read and as it is sent (its bytes sent of its
 * size) and does not freeze the page.
 *
 * @fires esign-started - The session exists and the control code is known.
 * @fires esign-signed - The document is signed: the file as base64 and as a Blob, and who signed.
 * @fires esign-cancelled - The person or the host cancelled.
 * @fires esign-error - The session failed; the detail says why and whether trying again can help.
 * @csspart base - The frame.
 * @csspart pick - The button that opens the file picker.
 * @csspart submit - The submit button.
 * @csspart subject - After a failure or a cancel: the document that was being signed, above the words.
 * @csspart progress - The document's way up: the words and the bar while it is read and sent.
 * @csspart download - The download link of the signed file.
 * @csspart preview - The document's preview, before signing and of the signed file after.
 * @csspart preview-toolbar - The preview's page navigation and zoom (forwarded).
 * @csspart preview-viewport - The preview's scrolling page area (forwarded).
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
 * @tag esign-sign
 */
export class EsignSign extends EsignSessionElement<SignedDetail, 'sign'> {
  static override styles = [theme, controls, sessionStyles, filePickerStyles, signStyles];

  /** Its file is large already (the preview): every child comes with it. */
  // each child's class from its define entry: a bundle keeps an element's class and its entry in one file
  static dependencies: Record<string, Dependency> = {
    'esign-person-form': EsignPersonForm,
    'esign-control-code': EsignControlCode,
    'esign-document-preview': EsignDocumentPreview,
    'esign-status': EsignStatus,
  };

  static override properties: PropertyDeclarations = {
    signer: signerProperty,
    files: { attribute: false },
    type: { type: String },
    signaturePosition: { type: String, attribute: 'signature-position' },
    signaturePage: { type: String, attribute: 'signature-page' },
    certificateLevel: { type: String, attribute: 'certificate-level' },
    maxSize: { type: Number, attribute: 'max-size' },
    peps: { type: Boolean },
    sanctions: { type: Boolean },
    noPreview: { type: Boolean, attribute: 'no-preview' },
    _picked: { state: true },
    _dragging: { state: true },
    _progress: { state: true },
    _preview: { state: true },
  };

  /** The document(s) to sign, set by the host; the person picks when empty. */
  declare files: SignInput | SignInput[] | null;
  /** pdf, asice, adoc or bdoc; follows the file when unset. */
  declare type: FileType | '';
  /** Visible signature on a PDF: auto, left_top, left_bottom, right_top, right_bottom; unset is invisible. */
  declare signaturePosition: SignaturePosition | '';
  /** first_page or last_page (the service's default) for a visible PDF signature. */
  declare signaturePage: SignaturePage | '';
  /** Smart-ID certificate level: QSCD (default) or QUALIFIED. */
  declare certificateLevel: CertificateLevel | '';
  /** Largest file in bytes, checked before encoding; 0 for no limit. */
  declare maxSize: number;
  declare peps: boolean;
  declare sanctions: boolean;
  /** Shows no preview of the document (by default the person sees it before signing, and the signed file after). */
  declare noPreview: boolean;
  declare _picked: SignFile[];
  declare _dragging: boolean;
  declare _progress: Transfer | null;
  /** The file the person sees before confirming. */
  declare _preview: File | null;

  /**
   * The person logged in to the site, when the site signs only as them (the proxy's \`signer\`):
   * shown read-only and masked, with a note that the site set it. Attribute: \`code[,country[,phone]]\`.
   */
  declare signer: SignerPerson | string | null;

  protected override fixedPerson(): SignerPerson | null {
    return signerOf(this.signer);
  }

  /** The form at rest says more than the person form: the files to sign, in the session part. */
  protected override formWords: readonly StringPart[] = ['form', 'session'];
  #hostFiles: SignFile[] = [];
  #downloadUrl = '';
  #signed: SignedDetail | undefined;
  /** When the service's answer with the signed file came (its status answer carries no signing time). */
  #signedAt: Date | undefined;

  constructor() {
    super();
    this.files = null;
    this.type = '';
    this.signaturePosition = '';
    this.signaturePage = '';
    this.certificateLevel = '';
    this.maxSize = 0;
    this.peps = false;
    this.sanctions = false;
    this.signer = null;
    this.noPreview = false;
    this._picked = [];
    this._dragging = false;
    this._progress = null;
    this._preview = null;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (changed.has('files')) this.#hostFiles = toSignFiles(this.files);
    if (changed.has('files') || changed.has('_picked')) void this.#choosePreview();
  }

  /** What the person sees before confirming: the first PDF, or the one file (a container); read off the render path. */
  async #choosePreview(): Promise<void> {
    const files = this.documents;
    const chosen = files.find((file) => extensionOf(file.name) === 'pdf') ?? (files.length === 1 ? files[0] : undefined);
    if (!chosen) {
      this._preview = null;
      return;
    }
    const blob = chosen.blob ?? (chosen.base64 === undefined ? null : await base64ToBlob(chosen.base64, ''));
    // the documents may have changed while a host's base64 was read
    if (!this.documents.includes(chosen)) return;
    this._preview = !blob ? null : blob instanceof File && blob.name === chosen.name ? blob : new File([blob], chosen.name, { type: blob.type });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#revoke();
  }

  #revoke(): void {
    if (this.#downloadUrl) URL.revokeObjectURL(this.#downloadUrl);
    this.#downloadUrl = '';
  }

  /** The documents that will be signed: the host's, or the person's. */
  get documents(): SignFile[] {
    return this.#hostFiles.length ? this.#hostFiles : this._picked;
  }

  protected override async checkInputs(): Promise<void> {
    this.inputError = '';
    const files = this.documents;
    const fail = (message: string): never => {
      this.inputError = message;
      void this.focusLater('[part="pick"]');
      throw new EsignError('invalid-input', message, { field: 'file' });
    };
    if (!files.length) fail(this.t('sign.no-file'));
    const type = resolveType(this.type, files);
    if (!type) fail(this.t('sign.wrong-type'));
    if (type === 'pdf' && files.length > 1) fail(this.t('sign.one-pdf'));
    const first = files[0];
    if (type === 'pdf' && first && extensionOf(first.name) !== 'pdf' && first.blob?.type !== 'application/pdf') fail(this.t('sign.wrong-type'));
    const tooLarge = this.maxSize > 0 ? files.find((f) => f.size > this.maxSize) : undefined;
    if (tooLarge) fail(this.t('sign.too-large', { name: tooLarge.name, limit: formatSize(this.maxSize, this.language) }));
  }

  async #encode(files: SignFile[], signal: AbortSignal): Promise<FileContainer> {
    const total = files.reduce((sum, f) => sum + f.size, 0) || 1;
    let done = 0;
    this._progress = { fraction: 0 };
    const out: FileContainer = { files: [] };
    for (const file of files) {
      const content =
        file.base64 ?? (await blobToBase64(required(file.blob), (fraction) => (this._progress = { fraction: (done + fraction * file.size) / total }), signal));
      done += file.size;
      out.files.push({ name: file.name, content });
    }
    this._progress = null;
    return out;
  }

  /**
   * The signed file's name in the person's language: `sutartis (pasirašyta).pdf` for the service's
   * `sutartis_signed.pdf` (a name marked signed before keeps its one mark).
   */
  #signedName(serviceName: string): string {
    const dot = serviceName.lastIndexOf('.');
    const extension = dot > 0 ? serviceName.slice(dot) : '';
    const stem = (dot > 0 ? serviceName.slice(0, dot) : serviceName).replace(/_signed$/, '');
    const marked = this.t('sign.signed-name', { name: stem });
    const mark = this.t('sign.signed-name', { name: '' }).trim();
    return `${stem.endsWith(mark) ? stem : marked}${extension}`;
  }

  protected readonly session: SessionSpec<'sign', SignedDetail> = {
    kind: 'sign',
    start: async (client, channel, person, signal) => {
      const type = required(resolveType(this.type, this.documents));
      const mobileMessage = channel === 'mobile' ? await this.mobileMessage() : {};
      this.#revoke();
      const documentsTotal = this.documents.reduce((sum, file) => sum + file.size, 0);
      let container: FileContainer;
      try {
        container = await this.#encode(this.documents, signal);
      } finally {
        this._progress = null;
      }
      let since = 0;
      const onUploadProgress = (sent: number, total: number) => {
        const now = Date.now();
        since ||= now;
        this._progress = documentsSent(sent, total, documentsTotal, since, now);
      };
      const options = { signal, uploadSender: sendWithProgress, onUploadProgress };
      const common = {
        type,
        code: person.code,
        [type]: container,
        peps: this.peps,
        sanctions: this.sanctions,
        ...(type === 'pdf' && this.signaturePosition ? { signature_position: this.signaturePosition } : {}),
        ...(type === 'pdf' && this.signaturePage ? { signature_page: this.signaturePage } : {}),
      };
      const started =
        channel === 'smartid'
          ? client.call(
              smartIdSign,
              {
                ...common,
                country: person.country,
                ...(this.message ? { message: this.message } : {}),
                ...(this.certificateLevel ? { certificate_level: this.certificateLevel } : {}),
              },
              {},
              options,
            )
          : client.call(mobileSign, { ...common, phone: required(person.phone), ...mobileMessage }, {}, options);
      return started.finally(() => (this._progress = null));
    },
    finish: async (raw, { channel, token }) => {
      requireAnswer(isText(raw.file?.name) && isText(raw.file.content) && isString(raw.person?.name) && isString(raw.person.surname), 'signed file');
      const extension = extensionOf(raw.file.name);
      const mime = isOneOf(FILE_TYPES, extension) ? MIME_TYPES[extension] : 'application/octet-stream';
      const name = this.#signedName(raw.file.name);
      // a File: a Blob that also carries the signed file's name
      const blob = new File([await base64ToBlob(raw.file.content, mime)], name, { type: mime });
      this.#revoke();
      this.#downloadUrl = URL.createObjectURL(blob);
      const detail: SignedDetail = {
        file: { name, content: raw.file.content, digest: raw.file.digest, type: mime, blob },
        signatureId: raw.signature_id,
        person: { name: raw.person.name, surname: raw.person.surname },
        pepsData: camelCased(raw.peps_data ?? []),
        sanctionsData: camelCased(raw.sanctions_data ?? []),
        token,
        channel,
        result: camelCased(raw),
        raw,
      };
      this.#signed = detail;
      this.#signedAt = new Date();
      this.requestUpdate();
      return detail;
    },
    announce: (detail) => this.emit('esign-signed', detail),
    subject: () => this.documents.map((file) => file.name).join(', '),
  };

  protected successMessage(): string {
    const person = this.result?.person;
    return this.t('sign.success', { name: person ? `${person.name} ${person.surname}` : '' });
  }

  /** The signature's level, its method and when it was made (`Qualified electronic signature · Smart-ID · 28 Nov 2026, 14:05 GMT+2`). */
  protected override successDetail(): string {
    const signedAt = this.#signedAt;
    const channel = this.#signed?.channel;
    if (!signedAt || !channel) return '';
    // the level asked at the start: Mobile-ID's and Smart-ID's QSCD certificates make a qualified
    // signature, Smart-ID's QUALIFIED level an advanced one with a qualified certificate
    const level = channel === 'smartid' && this.certificateLevel === 'QUALIFIED' ? 'advanced-qc' : 'qes';
    // the date and the time (with its zone) each kept on one line: a line may break only between them
    const text = dateTimeWithZone(signedAt, this.language);
    const time = /\d{1,2}:\d\d.*$/.exec(text);
    const whole = (part: string) => part.replace(/ /g, '\u00a0');
    const when = time ? `${whole(text.slice(0, time.index).trimEnd())} ${whole(time[0])}` : text;
    return [this.t(`sign.level.${level}`), this.t(`channel.${channel}`), when].join(DETAIL_SEPARATOR);
  }

  protected cancelledMessage(): string {
    return this.t('sign.cancelled');
  }

  protected submitLabel(): string {
    return this.t('sign.submit');
  }

  #add(list: FileList): void {
    const added = toSignFiles([...list]);
    // a container collects files; anything else is one document, replaced by the next choice
    const next = this.type && this.type !== 'pdf' ? [...this._picked, ...added] : added;
    // a file that cannot be signed is refused as it is chosen, never listed as if chosen
    if (!resolveType(this.type, next)) {
      this.inputError = this.t('sign.wrong-type');
      this.requestUpdate();
      return;
    }
    this._picked = next;
    this.inputError = '';
  }

  #remove(index: number): void {
    this._picked = this._picked.filter((_, i) => i !== index);
    void this.focusLater(this._picked.length ? '.file-list button' : '[part="pick"]');
  }

  protected override renderInputs() {
    const files = this.documents;
    const containerType = this.type && this.type !== 'pdf' ? this.type : '';
    return html`${filePicker({
      label: this.t(files.length > 1 ? 'sign.files' : 'sign.file'),
      files,
      fixed: this.#hostFiles.length > 0,
      multiple: Boolean(containerType),
      accept: containerType ? '' : FILE_ACCEPT,
      hint: containerType ? this.t('sign.types-any', { type: TYPE_NAMES[containerType] }) : this.t('sign.types'),
      pickLabel: this.t(files.length && containerType ? 'sign.pick-more' : 'sign.pick'),
      pickOther: this.t('sign.pick-other'),
      dropLabel: this.t('sign.drop'),
      error: this.inputError,
      dragging: this._dragging,
      removeLabel: (name) => this.t('sign.remove', { name }),
      size: (bytes) => formatSize(bytes, this.language),
      onFiles: (list) => this.#add(list),
      onRemove: (index) => this.#remove(index),
      onDragging: (dragging) => (this._dragging = dragging),
      busy: this.starting,
    })}
    ${this._progress ? transferProgress(this._progress, this.t.bind(this), this.language) : nothing}
    ${this.#renderPreview(this._preview)}`;
  }

  /** While the document goes up: the button says so, and a screen reader hears its size (and half way, when it is long). */
  protected override startingWords(): { button: string; said: string } {
    if (!this._progress?.sending) return super.startingWords();
    return { button: this.t('sign.sending-busy'), said: transferSaid(this._progress, this.t.bind(this), this.language) };
  }

  protected override filesMayChange(): boolean {
    return this.#hostFiles.length === 0;
  }

  protected override renderEndSubject() {
    const files = this.documents;
    if (!files.length) return nothing;
    return html`<p class="end-subject" part="subject">
      <span class="label">${this.t(files.length > 1 ? 'sign.files' : 'sign.file')}</span>
      ${files.map((file) => fileName(file.name))}
    </p>`;
  }

  protected override renderSuccess() {
    if (!this.#signed || !this.#downloadUrl) return nothing;
    const { name } = this.#signed.file;
    return html`<div class="actions">
        <a class="download" part="download" href=${this.#downloadUrl} download=${name} aria-describedby="signed-name">${this.t('sign.download')}</a>
        <span class="signed-name" id="signed-name">${fileName(name)}</span>
      </div>
      ${this.#renderPreview(this.#signed.file.blob, this.signaturePage === 'first_page' ? 1 : Number.MAX_SAFE_INTEGER)}`;
  }

  /** The preview; a signed PDF opens on the page its visible signature is on (the last, unless asked otherwise). */
  #renderPreview(file: Blob | null, page = 1) {
    if (this.noPreview || !file) return nothing;
    return html`<esign-document-preview
      .page=${page}
      part="preview"
      exportparts="toolbar: preview-toolbar, viewport: preview-viewport"
      .lang=${this.language}
      .theme=${this.theme}
      .strings=${this.strings}
      .file=${file}
      @esign-error=${stopHere}
      @esign-preview-loaded=${stopHere}
    ></esign-document-preview>`;
  }
}
