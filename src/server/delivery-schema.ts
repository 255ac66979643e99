/*
 * The JSON Schema of what esign-proxy POSTs to a host's site (the `Delivery` type of webhook.ts and
 * the signer question), shipped as esign-elements/webhook-delivery.schema.json for a host's own
 * validation. A test checks real deliveries of every type against it.
 */

const timestamp = { type: 'string', format: 'date-time', description: 'when it was made (ISO 8601)' } as const;
const visitor = {
  type: 'string',
  pattern: '^[0-9a-f]{64}$',
  description:
    'the visitor who started it: HMAC-SHA256 of "visitor:<id>" under ESIGN_EVENT_SECRET (else the access token), hex, as events show it; never a cookie',
} as const;
const channel = { enum: ['mobile', 'smartid'] } as const;
const country = { enum: ['LT', 'LV', 'EE'] } as const;
const signer = {
  type: 'object',
  required: ['country', 'code', 'from'],
  description:
    'whom the signing was for: the person your signer URL said is signed in (from "site"; the start was checked against them), else the country and code the start named (from "start")',
  properties: { country, code: { type: 'string' }, from: { enum: ['site', 'start'] } },
} as const;

/** One delivery type: its `type`, its `data.kind`, the operations that end it, and what its data holds besides. */
function delivery(type: string, kind: string, operations: readonly string[], data: { required: readonly string[]; properties: Record<string, unknown> }) {
  return {
    type: 'object',
    required: ['type', 'timestamp', 'data'],
    properties: {
      type: { const: type },
      timestamp,
      data: {
        type: 'object',
        required: ['kind', 'operation', 'token', 'visitor', 'result', ...data.required],
        properties: {
          kind: { const: kind },
          operation: { enum: operations, description: 'the operation that ended it' },
          token: { type: 'string', description: kind === 'document' ? 'the document uuid' : 'the session token: your idempotency key besides webhook-id' },
          visitor,
          ...data.properties,
        },
      },
    },
  };
}

export const DELIVERY_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'esign-proxy webhook delivery',
  description:
    'What esign-proxy POSTs to your site, signed as Standard Webhooks say: a verified result to ESIGN_WEBHOOK_URL before the browser sees it (login.verified, sign.verified, hash.verified, document.succeeded): facts, with no cookie of the browser, and nothing of your answer reaches a browser, so no delivery can log anyone in (login.verified is a notification; the login is the OpenID Connect one of esign-proxy); or the signer question to ESIGN_SIGNER_URL (signer.asked), which your site answers {"country","code"} of the person signed in, or null.',
  oneOf: [
    delivery('login.verified', 'login', ['mobileLoginStatus', 'smartIdLoginStatus'], {
      required: ['channel'],
      properties: {
        channel,
        result: {
          type: 'object',
          required: ['code', 'country', 'name', 'surname', 'certificate'],
          properties: { code: { type: 'string' }, country, name: { type: 'string' }, surname: { type: 'string' }, certificate: { type: 'object' } },
          description: "the service's verified answer in camelCase; screening data too",
        },
      },
    }),
    delivery('sign.verified', 'sign', ['mobileSignStatus', 'smartIdSignStatus'], {
      required: ['channel', 'signer'],
      properties: {
        channel,
        signer,
        result: {
          type: 'object',
          required: ['file', 'person'],
          properties: {
            file: {
              type: 'object',
              required: ['name', 'content', 'digest'],
              properties: { name: { type: 'string' }, content: { type: 'string', contentEncoding: 'base64' }, digest: { type: 'string' } },
            },
            person: { type: 'object', required: ['name', 'surname'] },
            signatureId: { type: 'string' },
          },
          description: "the signed file (base64) and the signer's name",
        },
      },
    }),
    delivery('hash.verified', 'hash', ['mobileHashSignStatus', 'smartIdHashSignStatus'], {
      required: ['channel', 'signer'],
      properties: {
        channel,
        signer,
        result: { type: 'object', required: ['signatureValue'], properties: { signatureValue: { type: 'string', contentEncoding: 'base64' } } },
      },
    }),
    delivery('document.succeeded', 'document', ['uploadDocument', 'inviteSigner', 'removeDocument', 'generateTemporarySigningLink', 'removeTemporarySigner'], {
      required: [],
      properties: { result: { type: 'object', description: "the service's answer to the document operation, in camelCase" } },
    }),
    {
      type: 'object',
      required: ['type', 'timestamp', 'data'],
      description:
        'the signer question: answer {"country": "EE", "code": "..."} of the person signed in to your site (from your session: the request carries the browser\'s cookies), or null (or 204) when nobody is',
      properties: {
        type: { const: 'signer.asked' },
        timestamp,
        data: {
          type: 'object',
          required: ['path'],
          properties: { path: { type: 'string', description: 'the signing start asked for, e.g. /smartid/sign.json' } },
        },
      },
    },
  ],
} as const;
