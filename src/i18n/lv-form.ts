import type { FormStrings } from './en-form.js';

/** Latvian, the words of the session elements' forms at rest (the channel choice and the person form's fields). */
export const strings: FormStrings = {
  'channel.smartid': 'Smart-ID',
  'channel.mobile': 'Mobile-ID',
  'identify.channel': 'Pieteikties ar',
  'identify.channel-only': 'Pieteikšanās ar {channel}',
  'form.channel-added': 'Var izvēlēties arī {channel}.',
  'identify.submit': 'Turpināt',
  'form.country': 'Valsts',
  'country.LT': 'Lietuva',
  'country.LV': 'Latvija',
  'country.EE': 'Igaunija',
  'form.code': 'Personas kods',
  'form.code.hint': '11 cipari',
  'form.code.hint-lv': 'Piemēram, 010190-12345',
  'form.phone': 'Tālruņa numurs',
  'form.phone.hint': 'Lietuvas (+370) vai Igaunijas (+372) numurs',
};
