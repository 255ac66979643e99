import type { Channel, Country } from '../../protocol/types.js';
import type { SignerPerson } from '../documents/signer.js';
import { firstOf } from '../../protocol/checks.js';

/** The country a page's language names, for the Smart-ID country at rest: Lithuania for any other. */
function countryOfLanguage(language: string): Country {
  return language === 'et' ? 'EE' : language === 'lv' ? 'LV' : 'LT';
}

/** The Smart-ID country in the form: the host's or the person's choice, else the page language's, among those offered. */
export function chosenCountry(chosen: Country | '', language: string, offered: readonly Country[]): Country {
  const country = chosen || countryOfLanguage(language);
  return offered.includes(country) ? country : firstOf(offered);
}

/** The country a session was for: Mobile-ID's by the phone's prefix (Estonia's +372, else Lithuania), Smart-ID's as chosen. */
export function sessionCountry(channel: Channel, fixed: SignerPerson | null, phone: string, chosen: Country): Country {
  if (channel === 'mobile') return (fixed?.phone ?? phone).replace(/[\s-]/g, '').startsWith('+372') ? 'EE' : 'LT';
  return fixed?.country ?? chosen;
}
