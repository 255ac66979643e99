import type { FormStrings } from './en-form.js';

/** Lithuanian, the words of the session elements' forms at rest (the channel choice and the person form's fields). */
export const strings: FormStrings = {
  'channel.smartid': 'Smart-ID',
  'channel.mobile': 'Mobile-ID',
  'identify.channel': 'Prisijungti su',
  'identify.channel-only': 'Prisijungimas su {channel}',
  'form.channel-added': 'Galima pasirinkti ir {channel}.',
  'identify.submit': 'Tęsti',
  'form.country': 'Šalis',
  'country.LT': 'Lietuva',
  'country.LV': 'Latvija',
  'country.EE': 'Estija',
  'form.code': 'Asmens kodas',
  'form.code.hint': '11 skaitmenų',
  'form.code.hint-lv': 'Pvz., 010190-12345',
  'form.phone': 'Telefono numeris',
  'form.phone.hint': 'Lietuvos (+370) arba Estijos (+372) numeris',
};
