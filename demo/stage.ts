/**
 * One element in one state, for `npm run screenshots`: `stage.html?element=identify&state=waiting&lang=lt&scheme=dark`.
 * The states are reached for real, against the demo's proxy and sandbox; `document.body.dataset.ready`
 * is set when the state is on screen.
 */
import '../src/define.js';
import { EsignClient } from '../src/client/index.js';
import { samplePdf } from 'esign-sandbox/sample-pdf';

const params = new URLSearchParams(location.search);
const element = params.get('element') ?? 'identify';
const state = params.get('state') ?? 'idle';
document.documentElement.lang = params.get('lang') ?? 'en';
document.documentElement.style.colorScheme = params.get('scheme') ?? 'light';
const stage = document.querySelector('#stage')!;
// `tall=1`: a bank's header above the element, as at 400% zoom, where the page must scroll to it
if (params.get('tall')) {
  const header = document.createElement('header');
  header.textContent = 'Bank';
  header.style.blockSize = '180px';
  stage.before(header);
}

type Live = HTMLElement & { updateComplete: Promise<boolean>; start?: () => Promise<unknown>; shadowRoot: ShadowRoot };

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !test(); i++) await wait(50);
}

function create(tag: string, attributes: Record<string, string> = {}): Live {
  const el = document.createElement(tag) as Live;
  el.setAttribute('endpoint', '/esign');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  stage.append(el);
  return el;
}

/** Types into a field of the element's person form, as a person would. */
async function typeIn(el: Live, id: string, value: string): Promise<void> {
  await el.updateComplete;
  const form = el.shadowRoot.querySelector('esign-person-form') as Live | null;
  await form?.updateComplete;
  const input = (form?.shadowRoot.querySelector(`#${id}`) ?? el.shadowRoot.querySelector(`#${id}`)) as HTMLInputElement;
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
}

function pdf(name = 'Sutartis.pdf'): File {
  return new File([samplePdf('Contract', 2) as BlobPart], name, { type: 'application/pdf' });
}

/** A scan-sized PDF: two pages and two megabytes of comment lines after its end. */
function largePdf(name = 'Sutartis.pdf'): File {
  const padding = new TextEncoder().encode(`\n%${'x'.repeat(1023)}`.repeat(2048));
  return new File([samplePdf('Contract', 2) as BlobPart, padding], name, { type: 'application/pdf' });
}

/** Until the element tells a tenth or more of its document sent (the shooter slows the page's uploads). */
async function sendingShown(el: Live): Promise<void> {
  await until(() => Number(el.shadowRoot.querySelector<HTMLProgressElement>('[part="progress"] progress')?.value ?? 0) >= 10);
}

async function uploaded(signers: object[] = [{ name: 'RŪTA', surname: 'TESTNUMBER', email: 'ruta@example.test' }]): Promise<string> {
  const bytes = samplePdf('Contract', 2);
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  const response = await fetch('/esign/api/document/upload.json', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access: 'private', file: { filename: 'Sutartis.pdf', content: btoa(text) }, signers }),
  });
  return ((await response.json()) as { document: { uuid: string } }).document.uuid;
}

/** A PDF signed by the sandbox through the demo's proxy, as a signer would get it. */
async function signedPdf(): Promise<Uint8Array> {
  const bytes = samplePdf('Contract', 2);
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  const client = new EsignClient({ endpoint: '/esign' });
  const start = await client.smartIdSign({ type: 'pdf', code: '40504040001', country: 'EE', pdf: { files: [{ name: 'Sutartis.pdf', content: btoa(text) }] } });
  const result = await client.waitForResult('smartid', 'sign', start.token, { interval: 300 });
  return Uint8Array.from(atob(result.file.content), (c) => c.charCodeAt(0));
}

/**
 * The sandbox's people below are Lithuanian or Estonian: on a Latvian page (which preselects
 * Latvia) the stage chooses Lithuania for them, as a person would.
 */
async function lithuanianOnLatvianPage(el: Live): Promise<void> {
  if (document.documentElement.lang === 'lv') (el as Live & { country: string }).country = 'LT';
  await el.updateComplete;
}

/** What a bank's hash signing names, in the page's language. */
const PAYMENT_ORDER: Record<string, string> = {
  lt: 'Mokėjimo nurodymas Nr.\u00a0123, 250,00\u00a0EUR',
  lv: 'Maksājuma uzdevums Nr.\u00a0123, 250,00\u00a0EUR',
  et: 'Maksekorraldus nr\u00a0123, 250,00\u00a0EUR',
  ru: 'Платёжное поручение №\u00a0123, 250,00\u00a0EUR',
  en: 'Payment order No.\u00a0123, EUR\u00a0250.00',
};

const SESSION: Record<string, (el: Live) => Promise<void>> = {
  idle: async () => undefined,
  invalid: async (el) => {
    await typeIn(el, 'code', '12345678901');
    (el.shadowRoot.querySelector('[part="submit"]') as HTMLButtonElement).click();
  },
  waiting: async (el) => {
    await lithuanianOnLatvianPage(el);
    await typeIn(el, 'code', '39001010607');
    void el.start!().catch(() => undefined);
    await until(() => el.shadowRoot.querySelector('esign-control-code') !== null);
  },
  // waiting while the network is away: the line that says so, as the session's polls set it
  offline: async (el) => {
    await SESSION['waiting']!(el);
    // from here no request is answered (a page whose network went away): the polls go unanswered
    const answering = globalThis.fetch;
    globalThis.fetch = (input, init) =>
      new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new DOMException("the page's network went away", 'AbortError'))));
    await until(() => el.shadowRoot.querySelector('[part="connection"].lost') !== null);
    globalThis.fetch = answering;
  },
  error: async (el) => {
    await lithuanianOnLatvianPage(el);
    await typeIn(el, 'code', '30403039917');
    await el.start!().catch(() => undefined);
  },
  // a Lithuanian person's code in Estonia (the same format): no account there, the country named
  'no-account': async (el) => {
    (el as Live & { country: string }).country = 'EE';
    await el.updateComplete;
    await typeIn(el, 'code', '30303039914');
    await el.start!().catch(() => undefined);
  },
  success: async (el) => {
    await lithuanianOnLatvianPage(el);
    await typeIn(el, 'code', '40504040001');
    await el.start!().catch(() => undefined);
  },
};

async function show(): Promise<void> {
  switch (element) {
    case 'identify':
      await SESSION[state]!(create('esign-identify', { 'poll-interval': '200' }));
      break;
    case 'sign': {
      // `signer`: the person logged in to the site, fixed
      const el = create('esign-sign', { 'poll-interval': '200', ...(state === 'signer' ? { signer: '30303039914,LT' } : {}) }) as Live & { files: File[] };
      if (state === 'sending') {
        // a large document on its way up, on a slow uplink
        el.files = [largePdf()];
        await lithuanianOnLatvianPage(el);
        await typeIn(el, 'code', '40504040001');
        void el.start!().catch(() => undefined);
        await sendingShown(el);
        break;
      }
      if (state === 'damaged') {
        // a file the person picked that the service cannot use: answered with "Choose another file"
        await el.updateComplete;
        const input = el.shadowRoot.querySelector('input[type=file]') as HTMLInputElement;
        const transfer = new DataTransfer();
        transfer.items.add(new File(['not a PDF at all'], 'scan.pdf', { type: 'application/pdf' }));
        input.files = transfer.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
        await lithuanianOnLatvianPage(el);
        await typeIn(el, 'code', '40504040001');
        await el.start!().catch(() => undefined);
        break;
      }
      if (state !== 'empty') el.files = [pdf()];
      await SESSION[state === 'empty' || state === 'signer' ? 'idle' : state]!(el);
      // the document drawn (or its failure said) before the picture is taken; the preview's own
      // code arrives after the form, so it may not be there yet; no preview while a session runs or after a failure
      if (['idle', 'invalid', 'signer', 'success'].includes(state)) {
        await until(() => {
          const root = el.shadowRoot.querySelector('esign-document-preview')?.shadowRoot;
          return Boolean(root?.querySelector('[part="error"]') || root?.querySelector('.textLayer')?.textContent);
        });
      }
      break;
    }
    case 'hash-sign': {
      const el = create('esign-hash-sign', {
        // SHA-256 of "hello world": a hash that can be signed; `wrong-hash`: the site's mistake, a hash one byte short
        hash:
          state === 'wrong-hash'
            ? 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcd'
            : 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
        'hash-algorithm': 'SHA256',
        ...(state === 'signer' ? { channel: 'mobile', signer: '50001018865,LT,+37060000666' } : {}),
        // the site's words for what the hash stands for: the hash then behind "Technical details"
        ...(state === 'subject' || state === 'waiting' ? { subject: PAYMENT_ORDER[document.documentElement.lang] ?? PAYMENT_ORDER['en']! } : {}),
      });
      if (state === 'waiting') await SESSION['waiting']!(el);
      if (state === 'wrong-hash') {
        await typeIn(el, 'code', '30303039914');
        await el.start!().catch(() => undefined);
      }
      break;
    }
    case 'document-upload': {
      const el = create('esign-document-upload', { 'callback-url': 'https://host.example/signed' });
      if (state === 'done' || state === 'sending') {
        await el.updateComplete;
        const input = el.shadowRoot.querySelector('input[type=file]') as HTMLInputElement;
        const transfer = new DataTransfer();
        transfer.items.add(state === 'sending' ? largePdf() : pdf());
        input.files = transfer.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
        await el.updateComplete;
        for (const [id, value] of [
          ['signer-0-name', 'RŪTA'],
          ['signer-0-surname', 'TESTNUMBER'],
          ['signer-0-email', 'ruta@example.test'],
        ] as const)
          await typeIn(el, id, value);
        const uploading = (el as Live & { upload(): Promise<unknown> }).upload().catch(() => undefined);
        if (state === 'sending') await sendingShown(el);
        else await uploading;
      }
      break;
    }
    case 'document': {
      const id = state === 'missing' ? '00000000-0000-0000-0000-000000000000' : await uploaded();
      const el = create('esign-document', { 'document-id': id, 'callback-url': 'https://host.example/signed' });
      await until(() => (el.shadowRoot?.textContent ?? '').length > 0);
      await wait(800);
      break;
    }
    case 'validation-report': {
      const el = create('esign-validation-report') as Live & { validateFile(file: File): Promise<unknown> };
      if (state === 'signed') {
        // a file the sandbox signed with Smart-ID, checked as a person drops it
        await el.updateComplete;
        await el.validateFile(new File([(await signedPdf()) as BlobPart], 'Sutartis_pasirasyta.pdf', { type: 'application/pdf' }));
        await until(() => Boolean(el.shadowRoot.querySelector('.signature')));
      }
      break;
    }
    default:
      stage.textContent = `no element ${element}`;
  }
  await wait(300);
  document.body.dataset.ready = 'true';
}

void show();
