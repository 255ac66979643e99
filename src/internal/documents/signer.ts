import type { PropertyDeclaration } from 'lit';
import type { Country } from '../../protocol/types.js';
import type { PersonField } from '../data/person.js';

/** The person a site lets sign (the one logged in to it), as the signing elements take it. */
export interface SignerPerson {
  code: string;
  country?: Country;
  /** Mobile-ID phone in international form. */
  phone?: string;
}

/** `signer` as an attribute: `code[,country[,phone]]`. */
export function signerFromAttribute(value: string | null): SignerPerson | null {
  const [code, country, phone] = (value ?? '').trim().split(/\s*,\s*/);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the country is checked against the offered ones where it is used
  return code ? ({ code, country: country?.toUpperCase(), phone } as SignerPerson) : null;
}

/** The property as set: its attribute form too (a framework may set the string as the property). */
export function signerOf(value: SignerPerson | string | null | undefined): SignerPerson | null {
  return typeof value === 'string' ? signerFromAttribute(value) : (value ?? null);
}

export const signerProperty: PropertyDeclaration = { converter: { fromAttribute: signerFromAttribute } };

/** The person form's fields a signer fixes: those it names. */
export function fixedFields(signer: SignerPerson | null | undefined): PersonField[] {
  return signer?.code ? (['code', 'country', 'phone'] as const).filter((field) => signer[field]) : [];
}
