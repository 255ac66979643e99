import type { OperationId } from '../protocol/operations.js';

/*
 * The fields each operation may carry, with their JSON types, from the service's interface and
 * what is known beyond it. Only these go up to the service: anything else the browser sends (an
 * `access_token` in any spelling, a URL parameter repeated in the body, a nested extra) is
 * dropped; a known field of the wrong type is refused with 400 naming it.
 */

type Shape = 'string' | 'boolean' | 'integer' | { object: Record<string, Shape> } | { array: Shape };

const FILES: Shape = { object: { files: { array: { object: { name: 'string', content: 'string', digest: 'string' } } } } };
const SIGNER: Shape = { object: { name: 'string', surname: 'string', email: 'string', successUrl: 'string', noEmail: 'boolean' } };
const SCREENING = { peps: 'boolean', sanctions: 'boolean' } as const;
const SIGNING = {
  type: 'string',
  message: 'string',
  code: 'string',
  signature_position: 'string',
  signature_page: 'string',
  pdf: FILES,
  asice: FILES,
  adoc: FILES,
  bdoc: FILES,
  ...SCREENING,
} as const;
const NONE = {} as const;

export const OPERATION_FIELDS: Record<OperationId, Record<string, Shape>> = {
  mobileLogin: { phone: 'string', code: 'string', language: 'string', message: 'string', message_format: 'string', ...SCREENING },
  smartIdLogin: { code: 'string', country: 'string', message: 'string', ...SCREENING },
  mobileLoginStatus: NONE,
  smartIdLoginStatus: NONE,
  mobileSign: { ...SIGNING, phone: 'string', message_format: 'string' },
  smartIdSign: { ...SIGNING, country: 'string', certificate_level: 'string' },
  mobileSignStatus: NONE,
  smartIdSignStatus: NONE,
  mobileHashSign: { hash: 'string', hash_algorithm: 'string', phone: 'string', code: 'string', country: 'string', message: 'string' },
  smartIdHashSign: { hash: 'string', hash_algorithm: 'string', code: 'string', country: 'string', message: 'string' },
  mobileHashSignStatus: NONE,
  smartIdHashSignStatus: NONE,
  removeMobileSession: NONE,
  removeSmartIdSession: NONE,
  uploadDocument: {
    access: 'string',
    file: { object: { filename: 'string', content: 'string', callbackUrl: 'string' } },
    signers: { array: SIGNER },
  },
  inviteSigner: { signer: SIGNER },
  validateDocument: NONE,
  removeDocument: NONE,
  generateTemporarySigningLink: {
    document_id: 'string',
    file: { object: { filename: 'string', content: 'string' } },
    callback_url: 'string',
    expire_after: 'integer',
    delete_document_after: 'integer',
    signers: {
      array: {
        object: { name: 'string', surname: 'string', signature_type: 'string', phone_number: 'string', personal_code: 'string', email: 'string' },
      },
    },
    language: 'string',
  },
  removeTemporarySigner: { name: 'string', surname: 'string', email: 'string', personal_code: 'string' },
  listSigners: NONE,
  checkDocumentStatus: NONE,
  downloadDocument: NONE,
  validateFile: { file: { object: { filename: 'string', content: 'string' } } },
};

export class InvalidField extends Error {
  constructor(readonly field: string) {
    super(`invalid field ${field}`);
  }
}

function pick(shape: Shape, value: unknown, path: string): unknown {
  if (shape === 'string') {
    if (typeof value !== 'string') throw new InvalidField(path);
    return value;
  }
  if (shape === 'boolean') {
    if (typeof value !== 'boolean') throw new InvalidField(path);
    return value;
  }
  if (shape === 'integer') {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new InvalidField(path);
    return value;
  }
  if ('array' in shape) {
    if (!Array.isArray(value)) throw new InvalidField(path);
    return value.map((item, i) => pick(shape.array, item, `${path}.${i}`));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidField(path);
  return pickObject(shape.object, value as Record<string, unknown>, `${path}.`);
}

function pickObject(shapes: Record<string, Shape>, value: Record<string, unknown>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, shape] of Object.entries(shapes)) {
    if (!Object.hasOwn(value, name) || value[name] === undefined) continue;
    out[name] = pick(shape, value[name], `${prefix}${name}`);
  }
  return out;
}

/** The operation's own fields of a body, typed; throws InvalidField for a known field of the wrong type. */
export function operationFields(id: OperationId, body: Record<string, unknown>): Record<string, unknown> {
  return pickObject(OPERATION_FIELDS[id], body, '');
}
