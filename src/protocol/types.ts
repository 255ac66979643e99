/**
 * Request and response types of the service, field by field, with the service's own
 * (snake_case) names. `access_token` is absent on purpose: the proxy adds it.
 */

export type Country = 'LT' | 'LV' | 'EE';
export type HashCountry = 'LT' | 'EE';
export type FileType = 'pdf' | 'adoc' | 'bdoc' | 'asice';
export type MessageFormat = 'GSM-7' | 'UCS-2';
export type PhoneLanguage = 'LIT' | 'ENG' | 'RUS' | 'EST';
export type SignaturePosition = 'auto' | 'left_top' | 'left_bottom' | 'right_top' | 'right_bottom';
export type SignaturePage = 'first_page' | 'last_page';
export type CertificateLevel = 'QSCD' | 'QUALIFIED';
export type HashAlgorithm = 'SHA256' | 'SHA512';
export type DocumentAccess = 'public' | 'private';

/** Known signStatus values; the service may send others, which pass through as strings. */
export type SignStatus = 'pending' | 'signed' | 'rejected' | 'reviewing' | 'confirmed' | 'denied' | 'reviewed' | (string & {});

export interface OkResponse {
  status: 'ok';
}

/** What a status endpoint answers while the person has not answered yet. */
export interface WaitingResponse {
  status: 'waiting';
}

export interface ErrorResponse {
  status: 'error';
  message: string;
  error_code?: number;
  /** Set by the esign-elements proxy on failures of its own (never by the service). */
  proxy_error?: ProxyErrorKind;
  /** With `invalid-field`: the field the proxy refused. */
  field?: string;
  /** With `rate-limited`: seconds until a new start is allowed (also the `Retry-After` header). */
  retry_after?: number;
}

/** Why the host's proxy refused or failed a request (`proxy_error` of its JSON answers). */
export type ProxyErrorKind =
  | 'operation-not-allowed'
  | 'operation-disabled'
  | 'cross-site'
  | 'unsupported-media-type'
  | 'malformed-json'
  | 'invalid-field'
  | 'request-too-large'
  | 'body-timeout'
  | 'forbidden'
  | 'signer-mismatch'
  | 'signer-unknown'
  | 'rate-limited'
  | 'busy'
  | 'host-error'
  | 'site-refused'
  | 'store-unavailable'
  | 'upstream-unreachable'
  | 'upstream-timeout'
  | 'upstream-invalid'
  | 'upstream-redirect'
  | 'upstream-too-large';

// --- shared objects -------------------------------------------------------------------------

export interface CertificateSubject {
  country: string;
  organisation: string | null;
  organisation_unit: string | null;
  common_name: string;
  surname: string;
  name: string;
  serial_number: string;
}

export interface CertificateIssuer {
  country: string;
  organisation: string;
  common_name: string;
}

export interface Certificate {
  /** One-line DN: `/C=LT/CN=SURNAME,NAME,<code>/SN=SURNAME/GN=NAME/serialNumber=PNOLT-<code>`. */
  name: string;
  subject: CertificateSubject;
  issuer: CertificateIssuer;
  /** `YYYY-MM-DD` */
  valid_from: string;
  /** `YYYY-MM-DD` */
  valid_to: string;
  /** Base64 of the base64 DER text (plain base64 DER is accepted too). */
  value: string;
}

export interface SignedFile {
  name: string;
  content: string;
  digest: string;
}

export interface Person {
  name: string;
  surname: string;
}

export interface Associates {
  parent: string;
}

export interface SanctionsRecord {
  id: number;
  reference: string;
  first_name: string;
  last_name: string;
  full_name: string;
  date_of_birth: string;
  place_of_birth: string;
  aka: string;
  gender: string;
  document_number: string;
  country_of_origin: string;
  type_sdn_or_entity: string;
  name_of_the_list: string;
  date_of_publication: string;
  date_of_publication_of_the_list: string;
  search_created_at: string;
  associates: Associates;
  image_url: string;
  date_of_death: string;
}

export interface PepsRecord {
  id: number;
  reference: string;
  first_name: string;
  last_name: string;
  full_name: string;
  political_position: string;
  associates: Associates;
  aka: string;
  date_of_birth: string;
  place_of_birth: string;
  gender: string;
  country_of_origin: string;
  country_of_activity: string;
  search_created_at: string;
  date_of_death: string;
}

export interface FileEntry {
  name: string;
  /** Standard base64 of the bytes. */
  content: string;
  digest?: string;
}

export interface FileContainer {
  files: FileEntry[];
}

export interface Screening {
  peps?: boolean;
  sanctions?: boolean;
}

// --- authentication -------------------------------------------------------------------------

export interface MobileLoginRequest extends Screening {
  phone: string;
  code: string;
  language?: PhoneLanguage;
  message?: string;
  message_format?: MessageFormat;
}

export interface MobileLoginResponse extends OkResponse {
  certificate: Certificate;
  code: string;
  token: string;
  control_code: string;
}

export interface SmartIdLoginRequest extends Screening {
  code: string;
  country: Country;
  message?: string;
}

export interface SmartIdLoginResponse extends OkResponse {
  token: string;
  control_code: string;
}

export interface IdentificationStatusResponse extends OkResponse {
  country: Country;
  certificate: Certificate;
  code: string;
  token: string;
  /** Listed for both channels; the smart channel may omit it. */
  control_code?: string;
  name: string;
  surname: string;
  sanctions_data: SanctionsRecord[];
  peps_data: PepsRecord[];
}

// --- file signing ---------------------------------------------------------------------------

interface SignRequestBase extends Screening {
  type: FileType;
  code: string;
  message?: string;
  signature_position?: SignaturePosition;
  signature_page?: SignaturePage;
  pdf?: FileContainer;
  asice?: FileContainer;
  adoc?: FileContainer;
  bdoc?: FileContainer;
}

export interface MobileSignRequest extends SignRequestBase {
  phone: string;
  message_format?: MessageFormat;
}

export interface SmartIdSignRequest extends SignRequestBase {
  country: Country;
  certificate_level?: CertificateLevel;
}

export interface SessionStartResponse extends OkResponse {
  token: string;
  control_code: string;
}

export interface SignStatusResponse extends OkResponse {
  signature_id: string;
  file: SignedFile;
  person: Person;
  sanctions_data: SanctionsRecord[];
  peps_data: PepsRecord[];
}

// --- hash signing ---------------------------------------------------------------------------

export interface SmartIdHashSignRequest {
  /** Lowercase hex: 64 characters for SHA256, 128 for SHA512. */
  hash: string;
  hash_algorithm: HashAlgorithm;
  country: HashCountry;
  code: string;
  /** ASCII only on the smart channel. */
  message?: string;
}

export interface MobileHashSignRequest extends SmartIdHashSignRequest {
  phone: string;
}

export interface HashSignStatusResponse extends OkResponse {
  /** Base64; raw r||s for an ECDSA P-256 key. */
  signature_value: string;
}

// --- documents ------------------------------------------------------------------------------

export interface SignerInput {
  name: string;
  surname: string;
  email: string;
  successUrl?: string;
  noEmail?: boolean;
}

export interface InvitedSigner {
  name: string;
  surname: string;
  /** Null when the signer was added with `noEmail: true`. */
  invitationUrl: string | null;
}

export interface UploadDocumentRequest {
  access: DocumentAccess;
  file: { filename: string; content: string; callbackUrl?: string };
  signers: SignerInput[];
}

export interface UploadDocumentResponse extends OkResponse {
  message?: string;
  document: { uuid: string };
  signers: InvitedSigner[];
}

export interface InviteSignerRequest {
  signer: SignerInput;
}

export interface InviteSignerResponse extends OkResponse {
  message?: string;
  signers: InvitedSigner[];
}

export interface SignerEntry {
  name: string;
  surname: string;
  /** `"true"` or `"false"` as a string. */
  isSignatureValid: string;
  signStatus: SignStatus;
  rejectionReason: string;
}

export interface SignersListResponse extends OkResponse {
  signers: SignerEntry[];
}

export interface SimpleReportSignature {
  id?: string;
  signatureFormat?: string;
  signatureLevel?: string;
  signingTime?: number | string;
  bestSignatureTime?: number | string;
  signedBy?: string;
  indication?: 'TOTAL_PASSED' | 'INDETERMINATE' | 'TOTAL_FAILED' | (string & {});
  subIndication?: string | null;
  errors?: string[];
  warnings?: string[];
  infos?: string[];
  certificateChain?: unknown;
  signatureScope?: unknown;
  [key: string]: unknown;
}

export interface ValidationReport {
  simpleReport: {
    validationTime?: number;
    firstTimestampId?: string | null;
    documentFilename?: string;
    validSignaturesCount?: number;
    signatureIdList?: string[];
    timestampIdList?: string[];
    firstSignatureId?: string | null;
    signaturesCount?: number;
    jaxbModel?: {
      validationPolicy?: { policyName?: string; policyDescription?: string };
      documentName?: string;
      validSignaturesCount?: number;
      signaturesCount?: number;
      containerType?: string | null;
      signatureOrTimestamp?: SimpleReportSignature[];
      semantic?: unknown[];
      validationTime?: number;
    };
    [key: string]: unknown;
  };
  diagnosticData: {
    DocumentName?: string;
    ValidationDate?: string;
    Signatures?: unknown[];
    UsedCertificates?: unknown[];
    UsedRevocations?: unknown[];
    UsedTimestamps?: unknown[];
    OriginalDocuments?: unknown[];
    TrustedLists?: unknown[];
    [key: string]: unknown;
  };
}

/** `check-status` (beyond the interface): `saved`, `signing`, `signed` are known; others are shown as they come. */
export interface DocumentStatusResponse extends OkResponse {
  data: { status: string; document_status: 'saved' | 'signing' | 'signed' | (string & {}) };
}

/** Validation of a file that is not stored (beyond the interface). */
export interface ValidateFileRequest {
  file: { filename: string; content: string };
}

export interface ValidationResponse extends OkResponse {
  data: ValidationReport;
}

export interface RemoveDocumentResponse extends OkResponse {
  data: { status: string; message: string };
}

export interface TemporarySignerInput {
  name?: string;
  surname?: string;
  signature_type?: string;
  phone_number?: string;
  personal_code?: string;
  email?: string;
}

export interface TemporarySigningLinkRequest {
  document_id: string;
  file?: { filename: string; content: string };
  callback_url: string;
  /** Minutes, default 30. */
  expire_after?: number;
  /** Minutes, not less than expire_after. */
  delete_document_after?: number;
  signers?: TemporarySignerInput[];
  language?: 'lt' | 'en';
}

/** The documented form of the answer. */
export interface TemporarySigningLinkSingle extends OkResponse {
  temporary_signing_link: string;
  valid_until: string | number;
}

/** The form some deployed services answer with. */
export interface TemporarySigningLinkList extends OkResponse {
  document_id: string;
  temporary_signing_links: { temporary_signing_link: string; valid_until: string | number }[];
}

export type TemporarySigningLinkResponse = TemporarySigningLinkSingle | TemporarySigningLinkList;

/** Both answer forms read into one shape; `validUntil` is a Date. */
export interface TemporarySigningLink {
  url: string;
  validUntil: Date;
}

export interface RemoveTemporarySignerRequest {
  name?: string;
  surname?: string;
  email?: string;
  personal_code?: string;
}

/** The two ways to confirm: Mobile-ID (the SIM) and Smart-ID (the app). */
export type Channel = 'mobile' | 'smartid';
/** Both channels, in the order a form offers them. */
export const CHANNELS: readonly Channel[] = ['smartid', 'mobile'];
/** The three countries of the service, in the order a form offers them. */
export const COUNTRIES: readonly Country[] = ['LT', 'LV', 'EE'];
/** A session kind: which start created the token, so which status endpoint answers for it. */
export type SessionKind = 'login' | 'sign' | 'hash';
