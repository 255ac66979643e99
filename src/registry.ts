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

const GROWN = 'its size on 2026-11-24 plus 3%';

export const REGISTRY: readonly ElementEntry[] = [
  {
    name: 'identify',
    className: 'EsignIdentify',
    onDemand: [...SESSION, 'control-code', 'status', 'continue-login'],
    formWords: true,
    insideAllInOne: true,
    ceiling: { bytes: 19150, why: `the login element alone (issue 24); raised for the one method offered named as a tile and an OpenID Connect login continued (its part loaded on demand, issues 67 and 68); raised for the last method and country remembered, the document named above a failure, the connection lost in amber, the waiting detail's separator kept with what follows (issue 62); raised for the signature's summary hook and a session followed on after a reload remembered, in the shared session element (issue 62); raised for the session's words of issue 68 (the spoken phrases, the file to choose again, the send said, Latvian statuses as "Notiek …"); raised for what a hash signing confirms, beside the code (issue 68)` },
  },
  {
    name: 'sign',
    className: 'EsignSign',
    onDemand: [...SESSION, 'viewer'],
    formWords: true,
    ceiling: { bytes: 27300, why: `${GROWN}; raised for the signed file named in the person's language, the time left, the country of the page's language (issue 55); raised for the control code focused and named by its digits with the anti-phishing line, methods that follow the country, the busy start, the time-up state (issue 62); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for the signing card on a phone: the document named above a failure, the signed name with its added mark whole (issue 62); raised for the last method and country remembered, the document named above a failure, the connection lost in amber, the waiting detail's separator kept with what follows (issue 62); raised for a large document's way up (bytes sent of its size), the signature summed up after signing (level, method, time), a session followed on after a reload remembered (issue 62); raised for the sender that tells a document's way up (XMLHttpRequest), in this element's file only (issue 62); raised for the session's words of issue 68 (the spoken phrases, the file to choose again, the send said, Latvian statuses as "Notiek …"); raised for one clock with the status: a tick each second and the page's waking (issue 68); raised for what a hash signing confirms, beside the code (issue 68); raised for a detail's items one a line on a phone (issue 68); raised for a site's damaged file said as a dead end, no "·" at a line's start on a desktop either (issue 68)` },
  },
  {
    name: 'hash-sign',
    className: 'EsignHashSign',
    onDemand: [...SESSION, 'control-code', 'status'],
    formWords: true,
    ceiling: { bytes: 20100, why: `${GROWN}; raised for the one method offered named as a tile (issue 68); raised for the signature's summary hook and a session followed on after a reload remembered, in the shared session element (issue 62); raised for the session's words of issue 68 (the spoken phrases, the file to choose again, the send said, Latvian statuses as "Notiek …"); raised for what a hash signing confirms, beside the code (issue 68)` },
  },
  {
    name: 'document-upload',
    className: 'EsignDocumentUpload',
    ceiling: { bytes: 17300, why: `${GROWN}; raised for issue 45 (the host-set addresses checked as setup, a removed document withdrawn from the result, file rows that wrap); raised for brand names kept whole in the shared translate (issue 55); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for file names with the added mark shown whole and the download's label centred, in the shared file picker (issue 62); raised for a large document's way up (bytes sent of its size) with its bar, told by the shared caller (issue 62); raised for one failure for every element: what could not be done as its heading, drawn as esign-status draws it, in the shared document element and styles (issue 62); raised for the sender that tells a document's way up (XMLHttpRequest), in this element's file only (issue 62); raised for a document's send said to a screen reader, once and half way (issue 68)` },
  },
  {
    name: 'signer-list',
    className: 'EsignSignerList',
    ceiling: { bytes: 15230, why: `${GROWN}; raised for brand names kept whole in the shared translate (issue 55); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for a document's way up told by the shared caller (onUploadProgress, issue 62); raised for one failure for every element: what could not be done as its heading, drawn as esign-status draws it, in the shared document element and styles (issue 62)` },
  },
  {
    name: 'validation-report',
    className: 'EsignValidationReport',
    onDemand: ['report-view'],
    ceiling: { bytes: 15500, why: `${GROWN}; raised for issue 45 (icons out of accessible names, forced-colours borders and file rows that wrap, in the shared document styles); raised for times with their zone (issue 55); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for file names with the added mark shown whole and the download's label centred, in the shared file picker (issue 62); raised for a document's way up told by the shared caller (onUploadProgress, issue 62); raised for one failure for every element: what could not be done as its heading, drawn as esign-status draws it, in the shared document element and styles (issue 62)` },
  },
  {
    name: 'signing-link',
    className: 'EsignSigningLink',
    ceiling: { bytes: 15810, why: `${GROWN}; raised for issue 53 (the client's same-origin check and 413 reading); raised for times with their zone (issue 55); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for the signing page's languages said on a page in another (issue 62); raised for a document's way up told by the shared caller (onUploadProgress, issue 62); raised for one failure for every element: what could not be done as its heading, drawn as esign-status draws it, in the shared document element and styles (issue 62)` },
  },
  {
    name: 'document',
    className: 'EsignDocument',
    onDemand: ['report-view'],
    ceiling: { bytes: 22400, why: `${GROWN}; raised for times with their zone, brand names kept whole (issue 55); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for file names with the added mark shown whole and the download's label centred, in the shared file picker (issue 62); raised for the signing page's languages said on a page in another (issue 62); raised for a document's way up told by the shared caller (onUploadProgress, issue 62); raised for one failure for every element: what could not be done as its heading, drawn as esign-status draws it, in the shared document element and styles (issue 62)` },
  },
  {
    name: 'document-preview',
    className: 'EsignDocumentPreview',
    onDemand: ['viewer'],
    ceiling: { bytes: 10850, why: `${GROWN}; raised for a download named after the file, brand names kept whole (issue 55); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for one failure for every element: what could not be done as its heading, drawn as esign-status draws it, in the shared document element and styles (issue 62)` },
  },
  {
    name: 'person-form',
    className: 'EsignPersonForm',
    formWords: true,
    insideAllInOne: true,
    ceiling: { bytes: 13200, why: `${GROWN}, with the words of its form in the five languages inside (issue 24: a form drawn without waiting for a language file); raised for read-only values framed and said by their ending (issue 55); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for the amber warning token and read-only values dashed in forced colours (issue 62)` },
  },
  {
    name: 'control-code',
    className: 'EsignControlCode',
    ceiling: { bytes: 10200, why: `${GROWN}; raised for brand names kept whole in every string, the shared translate (issue 55); raised for its box focused and named by the code, the anti-phishing line, no PIN asked past the time (issue 62); raised for the connection-lost amber token and the waiting detail's separator (issue 62); raised for one clock with the status: a tick each second and the page's waking (issue 68); raised for what a hash signing confirms, beside the code (issue 68)` },
  },
  {
    name: 'status',
    className: 'EsignStatus',
    ceiling: { bytes: 11400, why: `${GROWN}; raised for the time left: a timer, a draining bar, said at a minute and half a minute (issue 55); raised for the time-up state at 0:00, said once, and Start again (issue 62); raised for casts made checks, read where they are used (src/protocol/checks.ts, issue 61); raised for one clock with the status: a tick each second and the page's waking (issue 68); raised for a detail's items one a line on a phone (issue 68); raised for no "·" at a line's start on a desktop either (issue 68)` },
  },
];
