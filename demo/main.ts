import { PERSONAS } from 'esign-sandbox/personas';
import '../src/define.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';

const log = document.querySelector<HTMLOListElement>('#log')!;
function record(name: string, detail: unknown): void {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()}  ${name}  ${JSON.stringify(detail)}`;
  log.prepend(item);
}
for (const name of ['esign-started', 'esign-authenticated', 'esign-signed', 'esign-hash-signed', 'esign-cancelled', 'esign-error', 'esign-document-uploaded', 'esign-signer-invited', 'esign-signer-removed', 'esign-validated', 'esign-signing-link-created', 'esign-document-removed']) {
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

const langSelect = document.querySelector<HTMLSelectElement>('#lang')!;
langSelect.addEventListener('change', () => (document.documentElement.lang = langSelect.value));
const themeSelect = document.querySelector<HTMLSelectElement>('#theme')!;
themeSelect.addEventListener('change', () => (document.documentElement.style.colorScheme = themeSelect.value));

const rows = PERSONAS.map((p) => {
  const row = document.createElement('tr');
  for (const text of [p.channel === 'mobile' ? 'Mobile-ID' : 'Smart-ID', p.phone ?? '', p.code, p.countries.join(', '), `${p.outcome === "ok" ? "" : `${p.outcome}: `}${p.note}${p.sandboxOnly ? " (sandbox only)" : ""}`]) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.append(cell);
  }
  return row;
});
document.querySelector('#identities tbody')!.append(...rows);

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
  doc.setAttribute('callback-url', `${location.origin}/callback`);
  doc.style.marginBlockStart = '1rem';
  slot.replaceChildren(doc);
});
