import type { FormStrings } from './en-form.js';

/** Russian, the words of the session elements' forms at rest (the channel choice and the person form's fields). */
export const strings: FormStrings = {
  'channel.smartid': 'Smart-ID',
  'channel.mobile': 'Mobile-ID',
  'identify.channel': 'Войти через',
  'identify.channel-only': 'Вход через {channel}',
  'form.channel-added': 'Можно также выбрать {channel}.',
  'identify.submit': 'Продолжить',
  'form.country': 'Страна',
  'country.LT': 'Литва',
  'country.LV': 'Латвия',
  'country.EE': 'Эстония',
  'form.code': 'Личный код',
  'form.code.hint': '11 цифр',
  'form.code.hint-lv': 'Например, 010190-12345',
  'form.phone': 'Номер телефона',
  'form.phone.hint': 'Литовский (+370) или эстонский (+372) номер',
};
