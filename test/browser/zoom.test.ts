import { expect } from '@open-wc/testing';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import { ENDPOINT, submitButton, type, until } from './helpers.js';

// A screen of 1280 × 1024 at 400% and 200% zoom lays a page out as 320 × 256 and 640 × 400: the
// control code, which the person compares with their phone, must be in view as a session starts,
// in every browser (each scrolls and moves focus its own way). The page is a frame of that size,
// the one viewport every browser of the suite lets a test set.

/** The sandbox's slow identity: the session waits about a minute, long enough to look. */
const SLOW_PERSON = '39001010607';
const DEFINE = new URL('../../src/elements/identify/define.ts', import.meta.url).href;

/** A bank's page in a frame of the given size: a tall header, then the login. */
async function pageOfSize(width: number, height: number, lang = 'en'): Promise<{ frame: HTMLIFrameElement; el: EsignIdentify }> {
  const frame = document.createElement('iframe');
  frame.style.cssText = `inline-size: ${width}px; block-size: ${height}px; border: 0; display: block`;
  frame.srcdoc = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><script type="module" src="${DEFINE}"></script></head>
<body style="margin: 0"><header style="block-size: 180px">Bank</header>
<esign-identify endpoint="${ENDPOINT}" channels="smartid" country="LT" poll-interval="60000"></esign-identify></body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const inside = frame.contentWindow!;
  await inside.customElements.whenDefined('esign-identify');
  const el = inside.document.querySelector('esign-identify') as EsignIdentify;
  await el.updateComplete;
  return { frame, el };
}

function codeBox(el: EsignIdentify): DOMRect | null {
  const digits = el.shadowRoot!.querySelector('esign-control-code')?.shadowRoot?.querySelector('[part="code"]');
  return digits?.textContent?.trim() ? digits.getBoundingClientRect() : null;
}

describe('at a high zoom', () => {
  // at 400% the login itself is below the fold: the page must scroll to the session
  for (const [zoom, width, height, scrolls] of [
    ['400%', 320, 256, true],
    ['200%', 640, 400, false],
  ] as const) {
    it(`keeps the control code in view when a session starts, at ${zoom} (${width} × ${height})`, async () => {
      const { frame, el } = await pageOfSize(width, height);
      try {
        await type(el, 'code', SLOW_PERSON);
        submitButton(el).click();
        await until(() => codeBox(el) !== null, 'the control code');
        await until(() => el.shadowRoot!.activeElement?.localName === 'esign-control-code', 'the focus on the control code');
        // scrolling settles over frames
        const inside = frame.contentWindow!;
        await new Promise((resolve) => inside.requestAnimationFrame(() => inside.requestAnimationFrame(resolve)));
        const box = codeBox(el)!;
        if (scrolls) expect(inside.scrollY, 'the page scrolled to the session').to.be.above(0);
        expect(box.top, `the code's top in view at ${zoom}`).to.be.at.least(0);
        expect(box.bottom, `the code's bottom in view at ${zoom}`).to.be.at.most(inside.innerHeight);
        el.shadowRoot!.querySelector('esign-status')!.shadowRoot!.querySelector<HTMLButtonElement>('button')?.click();
        await until(() => codeBox(el) === null, 'the session cancelled');
      } finally {
        frame.remove();
      }
    });
  }

  /** A login that ends in an error (the sandbox's person who declines in the app) in a frame of that size, its frames settled. */
  async function failedIn(
    width: number,
    height: number,
    lang = 'en',
  ): Promise<{ frame: HTMLIFrameElement; el: EsignIdentify; inside: Window; status: DOMRect; retry: DOMRect }> {
    const { frame, el } = await pageOfSize(width, height, lang);
    el.pollInterval = 100;
    await type(el, 'code', '30403039917');
    const failed = new Promise((resolve) => el.addEventListener('esign-error', resolve, { once: true }));
    submitButton(el).click();
    await failed;
    await until(() => el.shadowRoot!.activeElement?.getAttribute('part') === 'retry', 'the focus on Try again');
    const inside = frame.contentWindow!;
    await new Promise((resolve) => inside.requestAnimationFrame(() => inside.requestAnimationFrame(resolve)));
    const status = el.shadowRoot!.querySelector('esign-status')!.getBoundingClientRect();
    const retry = el.shadowRoot!.querySelector('[part="retry"]')!.getBoundingClientRect();
    return { frame, el, inside, status, retry };
  }

  it("brings an error's heading into view with the focused action where both fit (320 × 400)", async () => {
    const { frame, el, inside, retry } = await failedIn(320, 400);
    try {
      const heading = el.shadowRoot!.querySelector('esign-status')!.shadowRoot!.querySelector('.message')!.getBoundingClientRect();
      expect(heading.top, "the error's heading in view").to.be.at.least(0);
      expect(heading.bottom, "the error's heading in view").to.be.at.most(inside.innerHeight);
      expect(retry.bottom, 'the focused action in view with it').to.be.at.most(inside.innerHeight + 1);
      expect(inside.scrollY, 'the page scrolled to the error').to.be.above(0);
    } finally {
      frame.remove();
    }
  });

  it('keeps the focused action in view at 400% where the words and it do not fit together (Estonian), the end of the words above it', async () => {
    const { frame, inside, status, retry } = await failedIn(320, 256, 'et');
    try {
      expect(retry.bottom - status.top, 'they do not fit together: the check is real').to.be.above(inside.innerHeight);
      expect(retry.top, 'the focused action in view').to.be.at.least(-1);
      expect(retry.bottom, 'the focused action in view').to.be.at.most(inside.innerHeight + 1);
      expect(status.bottom, 'the end of the words above it, in view').to.be.above(0);
    } finally {
      frame.remove();
    }
  });

  it('brings the connection-lost line into view at 400% (320 × 256) as it is said', async () => {
    await fetch('/__faults/poll?plan=hold,hold');
    const { frame, el } = await pageOfSize(320, 256);
    try {
      el.pollInterval = 100;
      el.requestTimeout = 1500;
      await type(el, 'code', SLOW_PERSON);
      submitButton(el).click();
      const line = () => el.shadowRoot!.querySelector('[part="connection"]');
      await until(() => line()?.classList.contains('lost') === true, 'the connection said lost', 10_000);
      const inside = frame.contentWindow!;
      // the person scrolled back up to the code meanwhile
      el.shadowRoot!.querySelector('esign-control-code')!.scrollIntoView({ block: 'start' });
      await until(() => line()?.classList.contains('back') === true, 'the connection back', 10_000);
      await fetch('/__faults/poll?plan=hold,hold');
      await until(() => line()?.classList.contains('lost') === true, 'lost again', 10_000);
      await new Promise((resolve) => inside.requestAnimationFrame(() => inside.requestAnimationFrame(resolve)));
      const box = line()!.getBoundingClientRect();
      // (within a pixel: a scroll lands on whole pixels, a line's edge may not)
      expect(box.top, 'the line in view').to.be.at.least(-1);
      expect(box.bottom, 'the line in view').to.be.at.most(inside.innerHeight + 1);
      await el.cancel();
    } finally {
      await fetch('/__faults/poll?plan=');
      frame.remove();
    }
  });
});

describe('the signing card on a phone', () => {
  const SIGN = new URL('../../src/elements/sign/define.ts', import.meta.url).href;

  /** `<esign-sign>` with a two-page PDF in a frame of the given size; resolves once its preview is drawn. */
  async function signingCard(width: number, height: number): Promise<{ frame: HTMLIFrameElement; viewport: () => DOMRect }> {
    const frame = document.createElement('iframe');
    frame.style.cssText = `inline-size: ${width}px; block-size: ${height}px; border: 0; display: block`;
    frame.srcdoc = `<!doctype html><html lang="lt"><head><meta charset="utf-8"><script type="module" src="${SIGN}"></script></head>
<body style="margin: 0"><esign-sign endpoint="${ENDPOINT}"></esign-sign></body></html>`;
    const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    document.body.append(frame);
    await loaded;
    const inside = frame.contentWindow! as Window & typeof globalThis;
    await inside.customElements.whenDefined('esign-sign');
    const el = inside.document.querySelector('esign-sign') as HTMLElement & { files: File[] };
    const { samplePdf } = await import('esign-sandbox/sample-pdf');
    // a File of the frame's own (the element asks its window whether it holds a Blob)
    el.files = [new inside.File([samplePdf('Contract', 2) as BlobPart], 'Sutartis.pdf', { type: 'application/pdf' })];
    const viewport = () =>
      el.shadowRoot!.querySelector('esign-document-preview')?.shadowRoot?.querySelector('[part="viewport"]')?.getBoundingClientRect() ?? new DOMRect();
    await until(() => viewport().height > 100, 'the preview drawn');
    return { frame, viewport };
  }

  it("keeps the preview to 40% of a phone's height, so the Sign button stays in reach; on a desktop, 70%", async () => {
    for (const [width, height, share] of [
      [360, 740, 0.4],
      [1280, 800, 0.7],
    ] as const) {
      const { frame, viewport } = await signingCard(width, height);
      try {
        // the page drawn to fit: as tall as allowed, and no taller
        await until(() => viewport().height >= height * share - 40, `${width} × ${height}: as tall as allowed`);
        await new Promise((resolve) => frame.contentWindow!.requestAnimationFrame(() => frame.contentWindow!.requestAnimationFrame(resolve)));
        expect(Math.round(viewport().height), `${width} × ${height}`).to.be.at.most(Math.round(height * share) + 1);
      } finally {
        frame.remove();
      }
    }
  });
});
