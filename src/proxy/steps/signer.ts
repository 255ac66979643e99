import { ProxyRefusal, proxyError } from '../errors.js';
import { STARTS } from '../operation-kinds.js';
import type { ProxySigner } from '../options.js';
import { canonicalCode, storeKey } from '../start-rules.js';
import type { Step, Has } from './exchange.js';
import type { ProxySetup } from './setup.js';

/** A signer's code as bindings keep it: a digest, never the code in clear. */
export function signerKey(code: string): string {
  return storeKey(`signer:${canonicalCode(code.replace(/\s/g, ''))}`);
}

const digits = (phone: string) => phone.replace(/\D/g, '');

/** Whether a start's fields are for the signer: the same code, and the same country and phone where both say one. */
function sameSigner(fields: Record<string, unknown>, signer: ProxySigner): boolean {
  const code = fields['code'];
  if (typeof code !== 'string' || canonicalCode(code) !== canonicalCode(signer.code.replace(/\s/g, ''))) return false;
  const country = fields['country'];
  if (signer.country && typeof country === 'string' && country.toUpperCase() !== signer.country.toUpperCase()) return false;
  const phone = fields['phone'];
  if (signer.phone && typeof phone === 'string' && digits(phone) !== digits(signer.phone)) return false;
  return true;
}

function isSigner(value: unknown): value is ProxySigner {
  return typeof value === 'object' && value !== null && typeof (value as ProxySigner).code === 'string' && (value as ProxySigner).code.trim() !== '';
}

/**
 * Signer: with the host's `signer` hook, a signing start (file or hash, either channel) is only for
 * the person signed in to the host's site: anyone else is refused before anything is counted,
 * stored or forwarded, and so is a start when nobody is signed in.
 */
export const signer: Step<'operation' | 'info'> = (x, setup) => {
  const hook = setup.options.signer;
  const start = STARTS[x.operation.id];
  if (!hook || !start || start.kind === 'login') return;
  return checkSigner(x, setup, hook);
};

async function checkSigner(x: Has<'operation' | 'info'>, setup: ProxySetup, hook: NonNullable<ProxySetup['options']['signer']>): Promise<void> {
  const who = await setup.askHost('signer', () => hook(x.info), ` for ${x.operation.id}`);
  if (who === null || who === undefined) throw new ProxyRefusal(proxyError('signer-unknown'));
  if (!isSigner(who)) {
    setup.log(`[esign-proxy] signer() returned neither null nor { code } for ${x.operation.id}`);
    throw new ProxyRefusal(proxyError('host-error'), { hook: 'signer' });
  }
  if (!sameSigner(x.fields, who)) throw new ProxyRefusal(proxyError('signer-mismatch'));
  x.signer = signerKey(who.code);
}
