import { EsignClient, EsignError, translate, normalizeLanguage } from '../src/index.js';
import { PERSONAS } from '../src/sandbox/personas.js';
import '../src/define.js';

const log = document.querySelector<HTMLOListElement>('#log')!;
function record(name: string, detail: unknown): void {
  const item = document.createElement('li');
  item.textContent = `${new Date().toLocaleTimeString()}  ${name}  ${JSON.stringify(detail)}`;
  log.prepend(item);
}
for (const name of ['esign-started', 'esign-authenticated', 'esign-signed', 'esign-hash-signed', 'esign-cancelled', 'esign-error']) {
  document.addEventListener(name, (event) => record(name, (event as CustomEvent).detail));
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

const form = document.querySelector<HTMLFormElement>('#try')!;
const status = document.querySelector<HTMLParagraphElement>('#try-status')!;
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const lang = normalizeLanguage(document.documentElement.lang) ?? 'en';
  const client = new EsignClient({ endpoint: '/esign', lang });
  try {
    const start = await client.smartIdLogin({ code: String(data.get('code')), country: data.get('country') as 'EE' });
    status.textContent = `Control code ${start.control_code}: waiting for the person…`;
    record('started', start);
    const result = await client.waitForResult('smartid', 'login', start.token);
    status.textContent = `Authenticated: ${result.name} ${result.surname} (${result.country})`;
    record('authenticated', { name: result.name, surname: result.surname, code: result.code });
  } catch (error) {
    const code = error instanceof EsignError ? error.code : 'unknown';
    status.textContent = translate(lang, `error.${code}` as 'error.unknown');
    record('error', { code, message: (error as Error).message });
  }
});
