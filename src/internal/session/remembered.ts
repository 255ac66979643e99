import { isOneOf, isRecord } from '../../protocol/checks.js';
import { CHANNELS, COUNTRIES, type Channel, type Country } from '../../protocol/types.js';
import { webStorage } from '../data/web-storage.js';

/**
 * The method and country of the last session that ended well on this site, on this device (the
 * page's localStorage is its site's own), as bank logins remember them: never the code or the
 * phone. A session element preselects them where the host chose nothing and the person has not
 * begun; `no-remember` turns it off.
 */
export interface Remembered {
  channel: Channel;
  country: Country;
}

const KEY = 'esign-elements:remembered';

const storage = () => webStorage('localStorage');

export function readRemembered(): Remembered | null {
  try {
    const value: unknown = JSON.parse(storage()?.getItem(KEY) ?? 'null');
    if (!isRecord(value)) return null;
    const { channel, country } = value;
    return isOneOf(CHANNELS, channel) && isOneOf(COUNTRIES, country) ? { channel, country } : null;
  } catch {
    return null;
  }
}

export function writeRemembered(remembered: Remembered): void {
  try {
    storage()?.setItem(KEY, JSON.stringify({ channel: remembered.channel, country: remembered.country }));
  } catch {
    // a full or refused storage: nothing remembered
  }
}
