/**
 * Every element of the package, one line each. Its folder `src/elements/<name>/` holds its class,
 * styles, events and define entry (`define.ts`); the files that list the elements are made from
 * this list by `npm run registry` (the exports of `elements.ts`, the React components, the
 * framework prop types, the package's exports, the size ceilings), and a test fails when one of
 * them drifts from it. Its events and attributes are read from the custom elements manifest (the
 * class's JSDoc `@fires` and its properties), never restated here. Adding an element is its folder
 * plus one line here.
 */
export interface ElementEntry {
  /** Its folder, its entry (`esign-elements/<name>`), its tag (`esign-<name>`) and its script-tag file (`esign-<name>.js`). */
  readonly name: string;
  /** Its class, exported by this name from its folder's `<name>.ts`. */
  readonly className: string;
  /** Inside the all-in-one script-tag file, drawn with no second file to wait for; every other element loads when it appears. */
  readonly insideAllInOne?: true;
  /**
   * What its script-tag file loads only when needed, beside the language parts: the preview's
   * `viewer`, a session's `session-controller` and `phone-message` check, `control-code` and
   * `status` (nothing to show before a session starts), a validation's `report-view`. The built
   * package's test holds each file to this list.
   */
  readonly onDemand?: readonly OnDemandPart[];
  /** Its file carries its form's words in the five languages (the form is drawn without waiting for a language part). */
  readonly formWords?: true;
  /** The ceiling of its script-tag file (min+gzip, with what it imports statically), and why. */
  readonly ceiling: { readonly bytes: number; readonly why: string };
}

/** A part of the package a script-tag file loads on demand (its chunk's name). */
export type OnDemandPart = 'viewer' | 'session-controller' | 'phone-message' | 'control-code' | 'status' | 'report-view' | 'continue-login';

const SESSION: readonly OnDemandPart[] = ['phone-message', 'session-controller'];

export const REGISTRY: readonly ElementEntry[] = [
  {
    name: 'identify',
    className: 'EsignIdentify',
    onDemand: [...SESSION, 'control-code', 'status', 'continue-login'],
    formWords: true,
    insideAllInOne: true,
    ceiling: { bytes: 20700, why: 'the login alone: its form, its session, the OpenID Connect continuation loaded on demand' },
  },
  {
    name: 'sign',
    className: 'EsignSign',
    onDemand: [...SESSION, 'viewer'],
    formWords: true,
    ceiling: { bytes: 29570, why: 'the signing card: the form, the document and its way up, the signed file and its summary' },
  },
  {
    name: 'hash-sign',
    className: 'EsignHashSign',
    onDemand: [...SESSION, 'control-code', 'status'],
    formWords: true,
    ceiling: { bytes: 21750, why: 'a hash signing: the form, the session, the subject confirmed beside the code' },
  },
  {
    name: 'document-upload',
    className: 'EsignDocumentUpload',
    ceiling: { bytes: 18450, why: "a document uploaded with its signers, its way up said, the host's addresses checked" },
  },
  {
    name: 'signer-list',
    className: 'EsignSignerList',
    ceiling: { bytes: 16100, why: 'the signers of a document, their statuses, reminders and removal' },
  },
  {
    name: 'validation-report',
    className: 'EsignValidationReport',
    onDemand: ['report-view'],
    ceiling: { bytes: 16280, why: "a signed file's validation, its signatures and the reasons in the person's words" },
  },
  {
    name: 'signing-link',
    className: 'EsignSigningLink',
    ceiling: { bytes: 16620, why: "a signer's link to the service's signing page, in the page's language where it serves one" },
  },
  {
    name: 'document',
    className: 'EsignDocument',
    onDemand: ['report-view'],
    ceiling: { bytes: 24400, why: "a document's state, signers and downloads, its times with their zone" },
  },
  {
    name: 'document-preview',
    className: 'EsignDocumentPreview',
    onDemand: ['viewer'],
    ceiling: { bytes: 10950, why: "a PDF's pages drawn on demand, the engine loaded only when asked for" },
  },
  {
    name: 'person-form',
    className: 'EsignPersonForm',
    formWords: true,
    insideAllInOne: true,
    ceiling: { bytes: 14150, why: "the person's details with the words of its form in the five languages inside" },
  },
  {
    name: 'control-code',
    className: 'EsignControlCode',
    ceiling: { bytes: 10750, why: 'the control code with its instruction, warning and what is confirmed, on one clock' },
  },
  {
    name: 'status',
    className: 'EsignStatus',
    ceiling: { bytes: 12080, why: "a session's status: its words, its detail as items, the time left on one clock" },
  },
];

/** The ceilings of the files that are not one element's (min+gzip, with what each imports statically), and why. */
export const BUNDLE_CEILINGS: Readonly<Record<string, { readonly bytes: number; readonly why: string }>> = {
  'esign-elements.js': { bytes: 22200, why: 'the login inside, every other element loaded when it appears (docs/decisions/0008)' },
  'esign-client.js': { bytes: 5200, why: "the client's script-tag file, whole in itself: what esign-elements/client exports and the file helpers" },
  client: { bytes: 4800, why: 'esign-elements/client alone: the operations, errors, polling and the proxy caller' },
};
