/**
 * A moment as a person reads it, in their language and time zone, with the zone said
 * (`27 Nov 2026, 14:32 GMT+2`): a time a site's visitor in another zone cannot misread.
 */
export function dateTimeWithZone(date: Date, language: string): string {
  const text = date.toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short', hourCycle: 'h23' });
  // dateStyle and timeZoneName cannot be asked together: the zone's name comes on its own
  const zone = new Intl.DateTimeFormat(language, { timeZoneName: 'short' }).formatToParts(date).find((part) => part.type === 'timeZoneName');
  return zone ? `${text} ${zone.value}` : text;
}
