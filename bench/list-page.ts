import '../src/define.js';
import type { EsignSignerList } from '../src/elements/signer-list/signer-list.js';

const STATES = ['pending', 'signed', 'rejected', 'reviewing'];

/** Runs in the page: the first render of 1,000 signers, to the next painted frame. */
(window as unknown as { runListBench: () => Promise<unknown> }).runListBench = async () => {
  const el: EsignSignerList = document.createElement('esign-signer-list');
  el.setAttribute('lang', 'en');
  el.setAttribute('no-remove', '');
  document.body.append(el);
  await el.updateComplete;
  const signers = Array.from({ length: 1000 }, (_, i) => ({
    name: `PERSON${i}`,
    surname: 'TESTNUMBER',
    isSignatureValid: i % 3 ? 'false' : 'true',
    signStatus: STATES[i % STATES.length]!,
    rejectionReason: i % 4 === 2 ? 'Wrong amount' : '',
  }));
  const started = performance.now();
  el._signers = signers;
  await el.updateComplete;
  const rendered = performance.now() - started;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const painted = performance.now() - started;
  return { signers: el.shadowRoot!.querySelectorAll('li.signer').length, renderMs: rendered, toPaintMs: painted };
};
