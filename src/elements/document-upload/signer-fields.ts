import { html, nothing } from 'lit';
import type { SignerInput } from '../../protocol/types.js';
import { EMAIL, textField } from '../../internal/data/form-fields.js';
import { checkedOf } from '../../internal/element/event-value.js';

export interface SignerDraft {
  name: string;
  surname: string;
  email: string;
  /** Where the signing page sends this signer afterwards: the host's to set, never a field of the form. */
  successUrl: string;
  noEmail: boolean;
}

export const emptySigner = (): SignerDraft => ({ name: '', surname: '', email: '', successUrl: '', noEmail: false });

export type SignerProblems = Partial<Record<keyof SignerDraft, 'signer.name-empty' | 'signer.surname-empty' | 'signer.email-empty' | 'field.email'>>;

export function signerProblems(signer: SignerDraft): SignerProblems {
  const problems: SignerProblems = {};
  if (!signer.name.trim()) problems.name = 'signer.name-empty';
  if (!signer.surname.trim()) problems.surname = 'signer.surname-empty';
  if (!signer.email.trim()) problems.email = 'signer.email-empty';
  else if (!EMAIL.test(signer.email.trim())) problems.email = 'field.email';
  return problems;
}

export function signerInput(signer: SignerDraft): SignerInput {
  return {
    name: signer.name.trim(),
    surname: signer.surname.trim(),
    email: signer.email.trim(),
    ...(signer.successUrl.trim() ? { successUrl: signer.successUrl.trim() } : {}),
    ...(signer.noEmail ? { noEmail: true } : {}),
  };
}

/** The fields of one signer a person fills in: name, surname, e-mail, no-e-mail switch. */
export function signerFields(
  prefix: string,
  signer: SignerDraft,
  errorOf: (field: keyof SignerDraft) => string | undefined,
  t: (key: 'signer.name' | 'signer.surname' | 'signer.email' | 'signer.no-email') => string,
  change: (patch: Partial<SignerDraft>) => void,
  disabled: boolean,
) {
  return html`<div class="grid">
      ${textField({ id: `${prefix}-name`, label: t('signer.name'), value: signer.name, error: errorOf('name'), autocomplete: 'given-name', required: true, disabled, onInput: (name) => change({ name }) })}
      ${textField({ id: `${prefix}-surname`, label: t('signer.surname'), value: signer.surname, error: errorOf('surname'), autocomplete: 'family-name', required: true, disabled, onInput: (surname) => change({ surname }) })}
    </div>
    ${textField({ id: `${prefix}-email`, label: t('signer.email'), type: 'email', value: signer.email, error: errorOf('email'), autocomplete: 'email', required: true, disabled, onInput: (email) => change({ email }) })}
    <label class="choice">
      <input type="checkbox" .checked=${signer.noEmail} ?disabled=${disabled} @change=${(e: Event) => change({ noEmail: checkedOf(e) })} />
      ${t('signer.no-email')}
    </label>
    ${nothing}`;
}
