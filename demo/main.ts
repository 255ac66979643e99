import { PERSONAS } from 'esign-sandbox/personas';
import '../src/define.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { DEMO_WORDS, isDemoLanguage, type DemoLanguage, type DemoWord } from './words.js';

const log = document.querySelector<HTMLOListElement>('#log')!;
function record(name: string, detail: unknown): void {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()}  ${name}  ${JSON.stringify(detail)}`;
  log.prepend(item);
}
for (const name of [
  'esign-started',
  'esign-authenticated',
  'esign-signed',
  'esign-hash-signed',
  'esign-cancelled',
  'esign-error',
  'esign-document-uploaded',
  'esign-signer-invited',
  'esign-signer-removed',
  'esign-validated',
  'esign-signing-link-created',
  'esign-document-removed',
]) {
  document.addEventListener(name, (event) => {
    const detail = { ...(event as CustomEvent).detail };
    // keep the log readable: file contents and raw answers are long
    delete detail.raw;
    delete detail.result;
    delete detail.report;
    if (detail.file) detail.file = { name: detail.file.name, type: detail.file.type, size: detail.file.blob?.size };
    record(name, detail);
  });
}

/** The page in one of the five languages: its own words here, the elements' by the page's lang. */
function showIn(lang: DemoLanguage): void {
  const words = DEMO_WORDS[lang];
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll<HTMLElement>('[data-t]')) el.textContent = words[el.dataset['t'] as DemoWord];
  for (const el of document.querySelectorAll<HTMLInputElement>('[data-t-placeholder]')) el.placeholder = words[el.dataset['tPlaceholder'] as DemoWord];
  renderIdentities(lang);
}

const langSelect = document.querySelector<HTMLSelectElement>('#lang')!;
langSelect.addEventListener('change', () => {
  const lang = langSelect.value as DemoLanguage;
  showIn(lang);
  const url = new URL(location.href);
  url.searchParams.set('lang', lang);
  history.replaceState(null, '', url);
});
const themeSelect = document.querySelector<HTMLSelectElement>('#theme')!;
themeSelect.addEventListener('change', () => (document.documentElement.style.colorScheme = themeSelect.value));

function renderIdentities(lang: DemoLanguage): void {
  const words = DEMO_WORDS[lang];
  const rows = PERSONAS.map((p) => {
    const row = document.createElement('tr');
    const note = words[p.note as DemoWord] ?? p.note;
    const outcome = `${p.outcome === 'ok' ? '' : `${p.outcome}: `}${note}${p.sandboxOnly ? ` (${words['ids.sandbox-only']})` : ''}`;
    for (const text of [p.channel === 'mobile' ? 'Mobile-ID' : 'Smart-ID', p.phone ?? '', p.code, p.countries.join(', '), outcome]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    return row;
  });
  document.querySelector('#identities tbody')!.replaceChildren(...rows);
}

const identify = document.querySelector('esign-identify')!;
const options = document.querySelector<HTMLDivElement>('#identify-options')!;
options.addEventListener('change', (event) => {
  const input = event.target as HTMLInputElement | HTMLSelectElement;
  if (input.name === 'channels') identify.setAttribute('channels', input.value);
  else if (input instanceof HTMLInputElement && input.type === 'checkbox') identify.toggleAttribute(input.name, input.checked);
  else identify.setAttribute(input.name, input.value);
});

const sign = document.querySelector('esign-sign')!;
document.querySelector<HTMLDivElement>('#sign-options')!.addEventListener('change', (event) => {
  const input = event.target as HTMLSelectElement;
  if (input.value) sign.setAttribute(input.name, input.value);
  else sign.removeAttribute(input.name);
});
document.querySelector<HTMLButtonElement>('#sample')!.addEventListener('click', () => {
  sign.files = new File([samplePdf('Sample agreement', 2) as BlobPart], 'sample-agreement.pdf', { type: 'application/pdf' });
});

const hashSign = document.querySelector('esign-hash-sign')!;
const hashText = document.querySelector<HTMLInputElement>('#hash-options input[name=text]')!;
async function updateHash(): Promise<void> {
  hashSign.hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(hashText.value)));
}
hashText.addEventListener('input', () => void updateHash());
void updateHash();

const slot = document.querySelector<HTMLDivElement>('#document-slot')!;
document.querySelector('esign-document-upload')!.addEventListener('esign-document-uploaded', (event) => {
  const doc = document.createElement('esign-document');
  doc.setAttribute('endpoint', '/esign');
  doc.setAttribute('document-id', event.detail.uuid);
  // the file's name as the document's title at once (else it is learned with the first validation)
  doc.setAttribute('file-name', event.detail.fileName);
  doc.setAttribute('callback-url', `${location.origin}/callback`);
  doc.style.marginBlockStart = '1rem';
  slot.replaceChildren(doc);
});

// the language asked for in the address, else the browser's first of the five, else English
const asked = new URLSearchParams(location.search).get('lang');
const browserLanguage = navigator.languages.map((l) => l.slice(0, 2).toLowerCase()).find(isDemoLanguage);
const initial: DemoLanguage = isDemoLanguage(asked) ? asked : (browserLanguage ?? 'en');
langSelect.value = initial;
showIn(initial);
