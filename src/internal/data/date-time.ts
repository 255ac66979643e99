/**
 * The locale a language's dates and times are written in: Baltic English writes the day before
 * the month (`28 Nov 2026`), as British English does, never the US month-first form.
 */
export function dateLocale(language: string): string {
  return language === 'en' ? 'en-GB' : language;
}

/**
 * A moment as a person reads it, in their language and time zone, with the zone said
 * (`27 Nov 2026, 14:32 GMT+2`): a time a site's visitor in another zone cannot misread.
 */
export function dateTimeWithZone(date: Date, language: string): string {
  const locale = dateLocale(language);
  const text = date.toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });
  // dateStyle and timeZoneName cannot be asked together: the zone's name comes on its own
  const zone = new Intl.DateTimeFormat(locale, { timeZoneName: 'short' }).formatToParts(date).find((part) => part.type === 'timeZoneName');
  return zone ? `${text} ${zone.value}` : text;
}
