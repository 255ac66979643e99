/** English, the words of the session elements' forms at rest (the channel choice and the person form's fields): the source of these keys. */
export const strings = {
  'channel.smartid': 'Smart-ID',
  'channel.mobile': 'Mobile-ID',
  'identify.channel': 'Log in with',
  'identify.channel-only': 'Log in with {channel}',
  'form.channel-added': 'You can also choose {channel}.',
  'identify.submit': 'Continue',
  'form.country': 'Country',
  'country.LT': 'Lithuania',
  'country.LV': 'Latvia',
  'country.EE': 'Estonia',
  'form.code': 'Personal code',
  'form.code.hint': '11 digits',
  'form.code.hint-lv': 'Like 010190-12345',
  'form.phone': 'Phone number',
  'form.phone.hint': 'Lithuanian (+370) or Estonian (+372) number',
};

export type FormStrings = Record<keyof typeof strings, string>;
