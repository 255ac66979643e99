import { ProxyRefusal, proxyError } from '../errors.js';
import { STARTS } from '../operation-kinds.js';
import type { ProxySigner } from '../options.js';
import { canonicalPersonCode, isCountry, personDigest, phoneCountry, startCountry } from '../person.js';
import { uploadPrint, type UploadPrint } from '../signed-by.js';
import type { Step, Has } from './exchange.js';
import type { ProxySetup } from './setup.js';
import { isRecord } from '../../protocol/checks.js';

const digits = (phone: string) => phone.replace(/\D/g, '');

/**
 * Whether a start's fields are for the signer: the same country (the start's `country` field, and
 * a Mobile-ID phone's country, each must be the signer's), the same code as that country writes
 * it, and the same phone where the host gives one.
 */
export function sameSigner(fields: Record<string, unknown>, signer: ProxySigner): boolean {
  if (startCountry(fields) !== signer.country) return false;
  const code = fields['code'];
  if (typeof code !== 'string' || canonicalPersonCode(signer.country, code) !== canonicalPersonCode(signer.country, signer.code)) return false;
  const phone = fields['phone'];
  if (signer.phone && typeof phone === 'string' && digits(phone) !== digits(signer.phone)) return false;
  if (signer.phone && phoneCountry(signer.phone) !== null && phoneCountry(signer.phone) !== signer.country) return false;
  return true;
}

/** What is wrong with a `signer()` answer that is not null, or null when it names a person. */
function signerProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'neither null nor { country, code }';
  const { code, country } = value as Partial<ProxySigner>;
  if (typeof code !== 'string' || code.trim() === '') return 'a person without a code';
  if (!isCountry(country))
    return 'a person without a country (LT, LV or EE): a person is a country and a code, and the same digits in two countries are two people';
  return null;
}

/**
 * Signer: with the host's `signer` hook, a signing start (file or hash, either channel) is only for
 * the person signed in to the host's site, a country and a code: anyone else is refused before
 * anything is counted, stored or forwarded, and so is a start when nobody is signed in. A file
 * signing's start also remembers what the uploaded file already held, so that the end can check
 * exactly the signature the service added.
 */
export const signer: Step<'operation' | 'info'> = (x, setup) => {
  const hook = setup.options.signer;
  const start = STARTS[x.operation.id];
  if (!hook || !start || start.kind === 'login') return;
  return checkSigner(x, setup, hook);
};

async function checkSigner(x: Has<'operation' | 'info'>, setup: ProxySetup, hook: NonNullable<ProxySetup['options']['signer']>): Promise<void> {
  const who: unknown = await setup.askHost('signer', () => hook(x.info), ` for ${x.operation.id}`);
  if (who === null || who === undefined) throw new ProxyRefusal(proxyError('signer-unknown'));
  const problem = signerProblem(who);
  if (problem) {
    setup.log(
      'error',
      `[esign-proxy] signer() returned ${problem}, for ${x.operation.id}: return { country, code } of the person signed in, or null [request ${x.requestId}]`,
      x.requestId,
    );
    throw new ProxyRefusal(proxyError('host-error'), { hook: 'signer' });
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- signerProblem() found nothing wrong with it above
  const person = who as ProxySigner;
  if (!sameSigner(x.fields, person)) throw new ProxyRefusal(proxyError('signer-mismatch'));
  x.signer = personDigest(person.country, person.code);
  x.signedIn = person;
  if (STARTS[x.operation.id]?.kind === 'sign') x.upload = printOf(x.fields);
}

function printOf(fields: Record<string, unknown>): UploadPrint {
  const type = fields['type'];
  const container = typeof type === 'string' ? fields[type] : undefined;
  const files = isRecord(container) ? container['files'] : undefined;
  const field = (file: unknown, name: string) => String((isRecord(file) ? file[name] : undefined) ?? '');
  const list = Array.isArray(files)
    ? files.map((file: unknown) => ({ name: field(file, 'name'), content: Buffer.from(field(file, 'content'), 'base64') }))
    : [];
  const print = uploadPrint(type === 'pdf' ? 'pdf' : 'container', list);
  if (!print) throw new ProxyRefusal(proxyError('invalid-field', { field: typeof type === 'string' ? `${type}.files` : 'type' }));
  return print;
}
