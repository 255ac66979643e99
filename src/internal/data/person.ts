import type { Channel, Country } from '../../protocol/types.js';

/*
 * The person's details as the session elements use them, and what they need of the person form:
 * kept here so that the shared session element depends on no element.
 */

export type PersonChannel = Channel;
export type PersonField = 'code' | 'phone' | 'country';

export interface PersonValue {
  channel: PersonChannel;
  code: string;
  country: Country;
  /** Normalised `+370…` / `+372…`; mobile channel only. */
  phone?: string;
}

/** The part of `<esign-person-form>` a session element drives. */
export interface PersonForm extends HTMLElement {
  readonly value: PersonValue | null;
  code: string;
  phone: string;
  country: Country;
  validate(focus?: boolean): boolean;
  setFieldError(field: PersonField, message: string): void;
  /** Focuses a field the person can change (this one, else the first); false when there is none. */
  focusField(field: PersonField): boolean;
  reset(): void;
}
