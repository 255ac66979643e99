import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Country, FileType, HashAlgorithm, SignaturePage, SignaturePosition } from '../types.js';
import { HASH_HEX_DIGITS, isHashOf } from './rules.js';
import { mobileIdControlCode, smartIdControlCode } from './control-code.js';
import { Failure, type Fields, decodeBase64 } from './fields.js';
import { recordOf } from './json.js';
import { message } from './messages.js';
import { PERSONAS, findMobilePersona, findSmartIdPersona, type Outcome, type Persona } from '../personas.js';
import { certificateObject, type SandboxPki } from '../signatures/pki.js';
import { signDigest } from '../signatures/raw-signature.js';
import { pepsRecords, sanctionsRecords } from './screening.js';
import { padesSign, UnreadablePdfError } from '../signatures/pades.js';
import { UnreadableContainerError, signContainer, type NamedBytes } from '../signatures/containers.js';

export type Channel = 'mobile' | 'smartid';
export type Kind = 'login' | 'sign' | 'hash';

interface Session {
  token: string;
  channel: Channel;
  kind: Kind;
  persona?: Persona;
  code: string;
  country: Country;
  controlCode: string;
  answerAt: number;
  peps: boolean;
  sanctions: boolean;
  removed: boolean;
  sign?: { type: FileType; files: NamedBytes[]; position?: SignaturePosition; page?: SignaturePage };
  hash?: { bytes: Uint8Array; algorithm: HashAlgorithm };
  result?: object;
  /** After this the session is forgotten (a poll answers 40402). */
  expiresAt: number;
  /** The invitation or temporary link the session was started from, if any. */
  origin?: SessionOrigin;
}

export interface SessionOrigin {
  kind: 'sign' | 'link';
  token: string;
  /** The stored document's bytes when the session starts: the only file such a session may sign. */
  document?: Uint8Array;
}

/** Told once when a session started from an invitation or link has signed its file. */
export type SignedHook = (origin: SessionOrigin, file: { name: string; bytes: Uint8Array }, person: { name: string; surname: string; code: string }) => void;

export interface SessionTiming {
  now: () => number;
  answerAfterMs: number;
  slowAnswerAfterMs: number;
}

const FILE_TYPES = ['pdf', 'adoc', 'bdoc', 'asice'] as const;
/** How long a session is kept after the person's answer was due: then it and its files are freed. */
export const SESSION_KEEP_MS = 10 * 60_000;
/** Longest file name the sandbox takes (the service's limit is not published). */
export const MAX_FILE_NAME = 255;
const PERSON_ERRORS: Record<Exclude<Outcome, 'ok'>, { key: Parameters<typeof message>[1]; http: number }> = {
  40020: { key: 'refused', http: 200 },
  40021: { key: 'expired', http: 200 },
  40401: { key: 'notUser', http: 200 },
  40403: { key: 'notQualified', http: 200 },
  40801: { key: 'certificateTimeout', http: 200 },
  50000: { key: 'processing', http: 500 },
  50001: { key: 'providerError', http: 500 },
};

/**
 * Sessions of both channels: start, status after the person's delay, removal. A session is kept
 * for ten minutes after its answer was due and then forgotten with its files; removal frees it at
 * once, so memory stays bounded however long the sandbox runs.
 */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  #sweptAt = 0;

  /** Sessions held in memory now (for tests and monitoring). */
  get size(): number {
    this.#sweep(true);
    return this.#sessions.size;
  }

  /** A session still kept (not expired); expired ones are forgotten as they are met. */
  #live(token: string): Session | undefined {
    const session = this.#sessions.get(token);
    if (session && session.expiresAt <= this.timing.now()) {
      this.#sessions.delete(token);
      return undefined;
    }
    return session;
  }

  /** The invitation or link a session was started from, if it is still known. */
  originOf(token: string): SessionOrigin | undefined {
    return this.#live(token)?.origin;
  }

  /** Forgets expired sessions; at most once a second of the clock, not on every request. */
  #sweep(force = false): void {
    const now = this.timing.now();
    if (!force && now - this.#sweptAt < 1000) return;
    this.#sweptAt = now;
    for (const [token, session] of this.#sessions) if (session.expiresAt <= now) this.#sessions.delete(token);
  }

  constructor(
    readonly pki: SandboxPki,
    readonly timing: SessionTiming,
    readonly onSigned?: SignedHook,
  ) {}

  async start(channel: Channel, kind: Kind, fields: Fields, origin?: SessionOrigin): Promise<object> {
    this.#sweep();
    let persona: Persona | undefined;
    let code: string;
    let country: Country;
    if (channel === 'mobile') {
      const phone = fields.phone();
      country = kind === 'hash' ? fields.country(['LT', 'EE']) : phone.startsWith('+372') ? 'EE' : 'LT';
      code = fields.personalCode(country);
      persona = findMobilePersona(phone, code);
    } else {
      country = fields.country(kind === 'hash' ? ['LT', 'EE'] : ['LT', 'LV', 'EE']);
      code = fields.personalCode(country);
      persona = findSmartIdPersona(code, country);
      // the smart channel knows at once whether the person has an account
      if (!persona) fields.fail('notUser', {}, 40401, 404);
    }
    const session: Session = {
      token: randomUUID(),
      channel,
      kind,
      code,
      country,
      controlCode: '',
      answerAt: 0,
      peps: false,
      sanctions: false,
      removed: false,
      expiresAt: 0,
      ...(persona ? { persona } : {}),
    };
    let hash: Uint8Array;
    if (kind === 'hash') {
      const algorithm = fields.oneOf('hash_algorithm', ['SHA256', 'SHA512'] as const, 'invalidHashAlgorithm', true);
      const hex = fields.string('hash', true);
      if (!isHashOf(algorithm, hex)) fields.invalid('hash', 'invalidHash', { length: HASH_HEX_DIGITS[algorithm] });
      if (channel === 'smartid') fields.asciiMessage();
      else fields.string('message');
      hash = new Uint8Array(Buffer.from(hex, 'hex'));
      session.hash = { bytes: hash, algorithm };
    } else {
      if (channel === 'mobile') fields.mobileMessage();
      else fields.string('message');
      session.peps = fields.boolean('peps');
      session.sanctions = fields.boolean('sanctions');
      if (kind === 'login') {
        fields.oneOf('language', ['LIT', 'ENG', 'RUS', 'EST'] as const, 'invalidLanguage', false);
        hash = randomBytes(32);
      } else {
        session.sign = this.#readFiles(fields);
        // a signing page signs the stored document, as the service does, never a file the page sent instead
        const expected = origin?.document;
        if (expected && (session.sign.files.length !== 1 || !Buffer.from(session.sign.files[0]!.bytes).equals(expected))) {
          fields.invalid(String(fields.body['type']), 'notTheDocument');
        }
        if (channel === 'smartid') fields.oneOf('certificate_level', ['QSCD', 'QUALIFIED'] as const, 'invalidLevel', false);
        const digest = createHash('sha256');
        for (const file of session.sign.files) digest.update(file.bytes);
        hash = digest.digest();
      }
    }
    session.controlCode = channel === 'mobile' ? mobileIdControlCode(hash) : smartIdControlCode(hash);
    const delay = persona?.slow ? this.timing.slowAnswerAfterMs : this.timing.answerAfterMs;
    session.answerAt = this.timing.now() + delay;
    session.expiresAt = session.answerAt + SESSION_KEEP_MS;
    if (origin) session.origin = { kind: origin.kind, token: origin.token };
    this.#sessions.set(session.token, session);
    const answer: Record<string, unknown> = { status: 'ok', token: session.token, control_code: session.controlCode };
    if (channel === 'mobile' && kind === 'login') {
      // the mobile login start already carries the certificate; an unknown person fails at the status poll
      // (an unknown person gets a certificate too, as the service's samples always carry one)
      const who = persona ? identity(persona, country) : { channel, code, country, givenName: 'UNKNOWN', surname: 'TESTNUMBER' };
      answer['certificate'] = certificateObject((await this.pki.person(who)).der);
      answer['code'] = code;
    }
    return answer;
  }

  #readFiles(fields: Fields): NonNullable<Session['sign']> {
    const type = fields.oneOf('type', FILE_TYPES, 'invalidType', true);
    const position = fields.oneOf('signature_position', ['auto', 'left_top', 'left_bottom', 'right_top', 'right_bottom'] as const, 'invalidPosition', false);
    const page = fields.oneOf('signature_page', ['first_page', 'last_page'] as const, 'invalidPage', false);
    const container = fields.body[type];
    if (container === undefined) fields.invalid(type, 'fileMissing');
    const list = recordOf(container)?.['files'];
    if (!Array.isArray(list) || list.length === 0) fields.invalid(type, 'invalidFile');
    const files = list.map((entry: unknown) => {
      const file = recordOf(entry);
      const name = file?.['name'];
      if (typeof name !== 'string' || !name || name.length > MAX_FILE_NAME) fields.invalid(type, 'invalidFile');
      const bytes = decodeBase64(file?.['content']);
      if (!bytes || bytes.length === 0) fields.invalid(type, 'invalidBase64');
      return { name, bytes };
    });
    if (type === 'pdf' && (files.length !== 1 || !startsWithPdf(files[0]!.bytes))) {
      fields.fail('corrupted', {}, 40022);
    }
    return { type, files, ...(position ? { position } : {}), ...(page ? { page } : {}) };
  }

  async status(channel: Channel, kind: Kind, token: string, fields: Fields): Promise<object> {
    const session = this.#live(token);
    if (!session || session.removed || session.channel !== channel || session.kind !== kind) {
      fields.fail('sessionNotFound', {}, 40402, 404);
    }
    if (this.timing.now() < session.answerAt) return { status: 'waiting' };
    const persona = session.persona;
    const outcome: Outcome = !persona ? 40401 : kind === 'login' ? persona.outcome : (persona.signOutcome ?? persona.outcome);
    if (outcome !== 'ok') {
      const { key, http } = PERSON_ERRORS[outcome];
      const detail = persona?.note ?? '';
      throw new Failure(http, message(fields.locale, key, { detail }), outcome);
    }
    // (no persona is no account: 40401 above)
    if (!persona) fields.fail('notUser', {}, 40401, 404);
    if (!session.result) {
      session.result = await this.#result(session, persona, fields);
      const file = (session.result as { file?: { name: string; content: string } }).file;
      if (session.origin && file) {
        this.onSigned?.(
          session.origin,
          { name: file.name, bytes: new Uint8Array(Buffer.from(file.content, 'base64')) },
          {
            name: persona.givenName,
            surname: persona.surname,
            code: session.code,
          },
        );
      }
    }
    return session.result;
  }

  async #result(session: Session, persona: Persona, fields: Fields): Promise<object> {
    const { der, keys } = await this.pki.person(identity(persona, session.country));
    const { issuing } = await this.pki.authorities;
    const screening = {
      sanctions_data: sanctionsRecords(persona, session.sanctions),
      peps_data: pepsRecords(persona, session.peps),
    };
    if (session.kind === 'login') {
      return {
        status: 'ok',
        country: session.country,
        certificate: certificateObject(der),
        code: session.code,
        token: session.token,
        control_code: session.controlCode,
        name: persona.givenName,
        surname: persona.surname,
        ...screening,
      };
    }
    if (session.kind === 'hash') {
      const { bytes, algorithm } = session.hash!;
      const signature = await signDigest(keys.privateKey, bytes, algorithm);
      return { status: 'ok', signature_value: Buffer.from(signature).toString('base64') };
    }
    const sign = session.sign!;
    const signatureId = `S-${randomUUID()}`;
    const name = `${persona.givenName} ${persona.surname}`;
    const time = new Date(this.timing.now());
    let file: NamedBytes;
    try {
      file =
        sign.type === 'pdf'
          ? {
              name: signedNameOf(sign.files[0]!.name),
              bytes: await padesSign(
                sign.files[0]!.bytes,
                { privateKey: keys.privateKey, certificate: der, chain: [issuing.der], name },
                { time, ...(sign.position ? { position: sign.position } : {}), ...(sign.page ? { page: sign.page } : {}) },
              ),
            }
          : await signContainer(sign.type, sign.files, { privateKey: keys.privateKey, certificate: der, name }, time);
    } catch (error) {
      if (error instanceof UnreadableContainerError || error instanceof UnreadablePdfError) fields.fail('corrupted', {}, 40022, 200);
      throw error;
    }
    return {
      status: 'ok',
      signature_id: signatureId,
      file: {
        name: file.name,
        content: Buffer.from(file.bytes).toString('base64'),
        digest: createHash('sha1').update(file.bytes).digest('hex'),
      },
      person: { name: persona.givenName, surname: persona.surname },
      ...screening,
    };
  }

  remove(channel: Channel, token: string, fields: Fields): object {
    const session = this.#live(token);
    if (!session || session.removed || session.channel !== channel) fields.fail('requestNumber', {}, undefined, 404);
    session.removed = true;
    this.#sessions.delete(token);
    return { status: 'ok' };
  }
}

function startsWithPdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';
}

/** `contract.pdf` → `contract_signed.pdf`; a file signed before keeps its name. */
export function signedNameOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return stem.endsWith('_signed') ? name : `${stem}_signed${dot > 0 ? name.slice(dot) : ''}`;
}

export function identity(persona: Persona, country: Country) {
  return { channel: persona.channel, code: persona.code, country, givenName: persona.givenName, surname: persona.surname };
}

export { PERSONAS };
