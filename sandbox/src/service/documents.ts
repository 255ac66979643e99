import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordOf } from './json.js';
import { Fields, decodeBase64 } from './fields.js';
import { MAX_FILE_NAME, signedNameOf } from './sessions.js';
import { isEmailAddress, isWebUrl } from './rules.js';
import { message } from './messages.js';
import { validationReport } from '../signatures/validation-report.js';
import type { TrustAnchors } from '../signatures/validate-pdf.js';

const ALLOWED_TYPES = ['pdf', 'adoc', 'asice', 'bdoc'];

export interface StoredSigner {
  name: string;
  surname: string;
  email: string;
  successUrl?: string;
  noEmail: boolean;
  invitationToken: string;
  signStatus: string;
  isSignatureValid: 'true' | 'false';
  rejectionReason: string;
  temporary: boolean;
  personalCode?: string;
  phoneNumber?: string;
  signatureType?: string;
}

export interface TemporaryLink {
  token: string;
  validUntil: number;
  language: 'lt' | 'en';
  callbackUrl: string;
  /** The invitation tokens of the signers added with this link: a signature through it is theirs. */
  signers?: string[];
}

export interface StoredDocument {
  uuid: string;
  filename: string;
  /** base64 */
  content: string;
  access: 'public' | 'private';
  callbackUrl?: string;
  signers: StoredSigner[];
  links: TemporaryLink[];
  createdAt: number;
  deleteAt?: number;
}

export interface DocumentStoreOptions {
  now: () => number;
  /** The sandbox's CAs, for validation. */
  trust: () => Promise<TrustAnchors>;
  minuteMs: number;
  dataDir?: string;
  linkResponseForm: 'single' | 'list';
}

function temporarySigner(name: string, surname: string, email: string): StoredSigner {
  return {
    name,
    surname,
    email,
    noEmail: true,
    invitationToken: randomUUID(),
    signStatus: 'pending',
    isSignatureValid: 'false',
    rejectionReason: '',
    temporary: true,
  };
}

/** Documents, their signers and temporary links, kept while the sandbox runs (or in a data directory). */
export class DocumentStore {
  readonly #documents = new Map<string, StoredDocument>();

  constructor(readonly options: DocumentStoreOptions) {
    if (options.dataDir) {
      mkdirSync(this.#dir, { recursive: true });
      for (const file of readdirSync(this.#dir)) {
        if (!file.endsWith('.json')) continue;
        // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- a document the sandbox wrote itself into its own folder
        const doc = JSON.parse(readFileSync(join(this.#dir, file), 'utf8')) as StoredDocument;
        this.#documents.set(doc.uuid, doc);
      }
    }
  }

  get #dir(): string {
    return join(this.options.dataDir ?? '', 'documents');
  }

  #save(doc: StoredDocument): void {
    if (this.options.dataDir) writeFileSync(join(this.#dir, `${doc.uuid}.json`), JSON.stringify(doc));
  }

  #delete(uuid: string): void {
    this.#documents.delete(uuid);
    if (this.options.dataDir) rmSync(join(this.#dir, `${uuid}.json`), { force: true });
  }

  /** The document, or null when it never existed or its delete-after time has passed. */
  find(uuid: string): StoredDocument | null {
    const doc = this.#documents.get(uuid);
    if (!doc) return null;
    if (doc.deleteAt !== undefined && this.options.now() >= doc.deleteAt) {
      this.#delete(uuid);
      return null;
    }
    return doc;
  }

  #require(uuid: string, fields: Fields): StoredDocument {
    const doc = this.find(uuid);
    if (!doc) fields.fail('documentNotFound', {}, undefined, 404);
    return doc;
  }

  findByInvitation(token: string): { doc: StoredDocument; signer: StoredSigner } | null {
    for (const doc of this.#documents.values()) {
      const signer = doc.signers.find((s) => s.invitationToken === token);
      if (signer && this.find(doc.uuid)) return { doc, signer };
    }
    return null;
  }

  findByLink(token: string): { doc: StoredDocument; link: TemporaryLink } | null {
    for (const doc of this.#documents.values()) {
      const link = doc.links.find((l) => l.token === token);
      if (link && this.find(doc.uuid)) return { doc, link };
    }
    return null;
  }

  #signer(raw: unknown, fields: Fields, field: string): StoredSigner {
    const entry = recordOf(raw) ?? {};
    const sub = new Fields(entry, fields.locale);
    const name = sub.string('name') ?? fields.invalid(`${field}.name`, 'required');
    const surname = sub.string('surname') ?? fields.invalid(`${field}.surname`, 'required');
    const email = sub.string('email') ?? fields.invalid(`${field}.email`, 'required');
    if (!isEmailAddress(email)) fields.invalid(`${field}.email`, 'invalidEmail');
    const successUrl = sub.string('successUrl');
    if (successUrl !== undefined && !isWebUrl(successUrl)) fields.invalid(`${field}.successUrl`, 'invalidUrl');
    if (entry['noEmail'] !== undefined && typeof entry['noEmail'] !== 'boolean') fields.invalid(`${field}.noEmail`, 'invalidBoolean');
    return {
      name,
      surname,
      email,
      ...(successUrl ? { successUrl } : {}),
      noEmail: entry['noEmail'] === true,
      invitationToken: randomUUID(),
      signStatus: 'pending',
      isSignatureValid: 'false',
      rejectionReason: '',
      temporary: false,
    };
  }

  #invited(signer: StoredSigner, baseUrl: string) {
    return {
      name: signer.name,
      surname: signer.surname,
      invitationUrl: signer.noEmail ? null : `${baseUrl}/sign/${signer.invitationToken}`,
    };
  }

  upload(fields: Fields, baseUrl: string): object {
    const access = fields.oneOf('access', ['public', 'private'] as const, 'invalidAccess', true);
    const file = recordOf(fields.body['file']);
    if (!file) fields.invalid('file', 'required');
    const filename =
      typeof file['filename'] === 'string' && file['filename'].length <= MAX_FILE_NAME ? file['filename'] : fields.invalid('file.filename', 'required');
    const extension = filename.split('.').pop()?.toLowerCase() ?? '';
    if (!filename.includes('.') || !ALLOWED_TYPES.includes(extension)) fields.fail('fileType', {}, 0);
    const bytes = decodeBase64(file['content']);
    if (!bytes || bytes.length === 0) fields.invalid('file.content', 'invalidBase64');
    const callbackUrl = file['callbackUrl'];
    if (callbackUrl !== undefined && (typeof callbackUrl !== 'string' || !isWebUrl(callbackUrl))) {
      fields.invalid('file.callbackUrl', 'invalidUrl');
    }
    const rawSigners = fields.body['signers'];
    if (!Array.isArray(rawSigners)) fields.invalid('signers', 'invalidSigners');
    const signers = rawSigners.map((raw, i) => this.#signer(raw, fields, `signers.${i}`));
    const doc: StoredDocument = {
      uuid: randomUUID(),
      filename,
      content: Buffer.from(bytes).toString('base64'),
      access,
      ...(typeof callbackUrl === 'string' ? { callbackUrl } : {}),
      signers,
      links: [],
      createdAt: this.options.now(),
    };
    this.#documents.set(doc.uuid, doc);
    this.#save(doc);
    return {
      status: 'ok',
      message: message(fields.locale, 'uploaded'),
      document: { uuid: doc.uuid },
      signers: signers.map((s) => this.#invited(s, baseUrl)),
    };
  }

  invite(uuid: string, fields: Fields, baseUrl: string): object {
    const doc = this.#require(uuid, fields);
    const signer = this.#signer(fields.body['signer'], fields, 'signer');
    doc.signers.push(signer);
    this.#save(doc);
    return { status: 'ok', message: message(fields.locale, 'invited'), signers: [this.#invited(signer, baseUrl)] };
  }

  signers(uuid: string, fields: Fields): object {
    const doc = this.#require(uuid, fields);
    return {
      status: 'ok',
      signers: doc.signers.map((s) => ({
        name: s.name,
        surname: s.surname,
        isSignatureValid: s.isSignatureValid,
        signStatus: s.signStatus,
        rejectionReason: s.rejectionReason,
      })),
    };
  }

  async validate(uuid: string, fields: Fields): Promise<object> {
    const doc = this.#require(uuid, fields);
    const bytes = new Uint8Array(Buffer.from(doc.content, 'base64'));
    return { status: 'ok', data: await validationReport(doc.filename, bytes, this.options.now(), await this.options.trust()) };
  }

  /**
   * The document's state: `saved` after upload, `signing` once one signer signed, `signed` when
   * every signer has (the values the service publishes none of; these follow the signers).
   */
  checkStatus(uuid: string, fields: Fields): object {
    const doc = this.#require(uuid, fields);
    const signed = doc.signers.filter((s) => s.signStatus === 'signed').length;
    const documentStatus = signed === 0 ? 'saved' : signed < doc.signers.length ? 'signing' : 'signed';
    return { status: 'ok', data: { status: 'ok', document_status: documentStatus } };
  }

  /** The stored (signed, once signed) file: its bytes, content type and name. */
  download(uuid: string, fields: Fields): { bytes: Buffer; contentType: string; filename: string } {
    const doc = this.#require(uuid, fields);
    const extension = doc.filename.split('.').pop()?.toLowerCase() ?? '';
    const contentType =
      extension === 'pdf' ? 'application/pdf' : extension === 'asice' || extension === 'bdoc' ? 'application/vnd.etsi.asic-e+zip' : 'application/octet-stream';
    return { bytes: Buffer.from(doc.content, 'base64'), contentType, filename: doc.filename };
  }

  /** Validates a file that is not stored: the same report as a stored document's. */
  async validateFile(fields: Fields): Promise<object> {
    const file = recordOf(fields.body['file']);
    const filename = file?.['filename'];
    const bytes = decodeBase64(file?.['content']);
    if (typeof filename !== 'string' || !filename || filename.length > MAX_FILE_NAME) fields.invalid('file.filename', 'required');
    if (!bytes || bytes.length === 0) fields.invalid('file.content', 'invalidBase64');
    return { status: 'ok', data: await validationReport(filename, bytes, this.options.now(), await this.options.trust()) };
  }

  remove(uuid: string, fields: Fields): object {
    this.#require(uuid, fields);
    this.#delete(uuid);
    return { status: 'ok', data: { status: 'ok', message: message(fields.locale, 'removed') } };
  }

  temporaryLink(fields: Fields, baseUrl: string): object {
    const uuid = fields.string('document_id', true);
    const doc = this.#require(uuid, fields);
    const callbackUrl = fields.url('callback_url', true) ?? fields.invalid('callback_url', 'required');
    const expireAfter = fields.minutes('expire_after', 30) ?? 30;
    const deleteAfter = fields.minutes('delete_document_after');
    if (deleteAfter !== undefined && deleteAfter < expireAfter) fields.invalid('delete_document_after', 'deleteBeforeExpiry');
    const language = fields.oneOf('language', ['lt', 'en'] as const, 'invalidLanguage', false, 'lt');
    // everything is checked before anything of the document changes
    const file = recordOf(fields.body['file']);
    let replacement: { filename: string; content: Uint8Array } | undefined;
    if (file !== undefined) {
      const content = decodeBase64(file?.['content']);
      const filename = file?.['filename'];
      if (typeof filename !== 'string' || !filename || filename.length > MAX_FILE_NAME || !content || content.length === 0)
        fields.invalid('file', 'invalidFile');
      replacement = { filename, content };
    }
    const rawSigners = fields.body['signers'];
    if (rawSigners !== undefined && !Array.isArray(rawSigners)) fields.invalid('signers', 'invalidSigners');
    for (const raw of Array.isArray(rawSigners) ? rawSigners : []) {
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fields.invalid('signers', 'invalidSigners');
      // a temporary signer is listed and removed by name and surname: an entry without them is refused
      const entry = new Fields(recordOf(raw) ?? {}, fields.locale);
      if (!entry.string('name')?.trim()) fields.invalid('signers.name', 'required');
      if (!entry.string('surname')?.trim()) fields.invalid('signers.surname', 'required');
      const email = entry.string('email');
      if (email !== undefined && !isEmailAddress(email)) fields.invalid('signers.email', 'invalidEmail');
    }
    if (replacement) {
      doc.filename = replacement.filename;
      doc.content = Buffer.from(replacement.content).toString('base64');
    }
    const added: string[] = [];
    for (const raw of Array.isArray(rawSigners) ? rawSigners : []) {
      const entry = new Fields(recordOf(raw) ?? {}, fields.locale);
      const email = entry.string('email');
      const personalCode = entry.string('personal_code');
      const phoneNumber = entry.string('phone_number');
      const signatureType = entry.string('signature_type');
      const signer: StoredSigner = {
        ...temporarySigner(entry.string('name') ?? '', entry.string('surname') ?? '', email ?? ''),
        ...(personalCode ? { personalCode } : {}),
        ...(phoneNumber ? { phoneNumber } : {}),
        ...(signatureType ? { signatureType } : {}),
      };
      doc.signers.push(signer);
      added.push(signer.invitationToken);
    }
    const now = this.options.now();
    const link: TemporaryLink = { token: randomUUID(), validUntil: now + expireAfter * this.options.minuteMs, language, callbackUrl, signers: added };
    doc.links.push(link);
    if (deleteAfter !== undefined) doc.deleteAt = now + deleteAfter * this.options.minuteMs;
    this.#save(doc);
    const url = `${baseUrl}/link/${link.token}`;
    const validUntil = Math.floor(link.validUntil / 1000);
    return this.options.linkResponseForm === 'list'
      ? { status: 'ok', document_id: doc.uuid, temporary_signing_links: [{ temporary_signing_link: url, valid_until: validUntil }] }
      : { status: 'ok', temporary_signing_link: url, valid_until: validUntil };
  }

  /**
   * A signing session started from an invitation or a temporary link has ended: the stored
   * document becomes the signed file and the signer is marked signed. Returns where to send
   * the callback, if anywhere.
   */
  recordSignature(
    origin: { kind: 'sign' | 'link'; token: string },
    file: { bytes: Uint8Array },
    person: { name: string; surname: string; code: string },
  ): { uuid: string; callbackUrl?: string; signer: StoredSigner } | null {
    let doc: StoredDocument;
    let signer: StoredSigner | undefined;
    let callbackUrl: string | undefined;
    if (origin.kind === 'sign') {
      const found = this.findByInvitation(origin.token);
      if (!found) return null;
      ({ doc, signer } = found);
      callbackUrl = doc.callbackUrl;
    } else {
      const found = this.findByLink(origin.token);
      if (!found) return null;
      doc = found.doc;
      callbackUrl = found.link.callbackUrl;
      const pending = doc.signers.filter((s) => s.temporary && s.signStatus !== 'signed');
      // the person by their code or name; else the signer this link was made for, whoever signs
      // through it (one entry, never a second row under the certificate's name)
      signer =
        pending.find((s) => s.personalCode === person.code) ??
        pending.find((s) => s.name.toUpperCase() === person.name.toUpperCase() && s.surname.toUpperCase() === person.surname.toUpperCase()) ??
        pending.find((s) => found.link.signers?.includes(s.invitationToken));
      if (!signer) {
        signer = { ...temporarySigner(person.name, person.surname, ''), personalCode: person.code };
        doc.signers.push(signer);
      }
    }
    signer.signStatus = 'signed';
    // the sandbox's own signatures are real and chain to its CA
    signer.isSignatureValid = 'true';
    doc.content = Buffer.from(file.bytes).toString('base64');
    // the stored file is now the signed one, named as a signed file is everywhere (x_signed.pdf)
    doc.filename = signedNameOf(doc.filename);
    this.#save(doc);
    return { uuid: doc.uuid, signer, ...(callbackUrl ? { callbackUrl } : {}) };
  }

  removeTemporarySigner(uuid: string, fields: Fields): object {
    const doc = this.#require(uuid, fields);
    const by = {
      name: fields.string('name'),
      surname: fields.string('surname'),
      email: fields.string('email'),
      personalCode: fields.string('personal_code'),
    };
    if (!Object.values(by).some((v) => v !== undefined)) fields.fail('signerNotFound', {}, undefined, 404);
    const index = doc.signers.findIndex(
      (s) =>
        s.temporary &&
        (by.name === undefined || s.name === by.name) &&
        (by.surname === undefined || s.surname === by.surname) &&
        (by.email === undefined || s.email === by.email) &&
        (by.personalCode === undefined || s.personalCode === by.personalCode),
    );
    if (index < 0) fields.fail('signerNotFound', {}, undefined, 404);
    doc.signers.splice(index, 1);
    this.#save(doc);
    return { status: 'ok' };
  }
}
