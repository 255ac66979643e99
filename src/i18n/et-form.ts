import type { FormStrings } from './en-form.js';

/** Estonian, the words of the session elements' forms at rest (the channel choice and the person form's fields). */
export const strings: FormStrings = {
  'channel.smartid': 'Smart-ID',
  'channel.mobile': 'Mobiil-ID',
  'identify.channel': 'Sisselogimise viis',
  'identify.channel-only': 'Sisselogimise viis: {channel}',
  'form.channel-added': 'Valida saab ka {channel}.',
  'identify.submit': 'Jätka',
  'form.country': 'Riik',
  'country.LT': 'Leedu',
  'country.LV': 'Läti',
  'country.EE': 'Eesti',
  'form.code': 'Isikukood',
  'form.code.hint': '11 numbrit',
  'form.code.hint-lv': 'Näiteks 010190-12345',
  'form.phone': 'Telefoninumber',
  'form.phone.hint': 'Leedu (+370) või Eesti (+372) number',
};
