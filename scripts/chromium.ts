/** Debian's Chromium and the flags it needs here: headless, as root, and quiet on a closed network. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
export const FIREFOX_PATH = '/usr/bin/firefox-esr';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
