/// <reference types="vite/client" />
import workerUrl from 'pdfjs-dist/legacy/build/pdf.worker.min.mjs?url';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import '../src/elements/document-preview/define.js';
import type { EsignDocumentPreview } from '../src/elements/document-preview/document-preview.js';

/** From the file given to the first page drawn with its text layer. */
async function firstPage(pages: number): Promise<number> {
  const el: EsignDocumentPreview = document.createElement('esign-document-preview');
  el.lang = 'en';
  el.workerSrc = workerUrl;
  document.body.replaceChildren(el);
  const file = new File([samplePdf('Bench', pages) as BlobPart], `bench-${pages}.pdf`, { type: 'application/pdf' });
  const started = performance.now();
  el.file = file;
  for (;;) {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const root = el.shadowRoot;
    if (root?.querySelector('.textLayer')?.textContent?.includes(`Page 1 of ${pages}`) && (root.querySelector('canvas')?.width ?? 0) > 0) break;
  }
  await new Promise((resolve) => requestAnimationFrame(resolve));
  return performance.now() - started;
}

/** Runs in the page: the first with PDF.js still to load, then with it loaded. */
(window as unknown as { runPreviewBench: () => Promise<unknown> }).runPreviewBench = async () => ({
  cold10: await firstPage(10),
  warm10: await firstPage(10),
  warm100: await firstPage(100),
});
