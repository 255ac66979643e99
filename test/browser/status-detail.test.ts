import { expect, fixture, html } from '@open-wc/testing';
import '../../src/define.js';
import type { EsignStatus } from '../../src/elements/status/status.js';
import { DETAIL_SEPARATOR } from '../../src/internal/session/session-words.js';

// A detail of several items (a signature's level, method and time; the waiting method and person)
// on a phone: one item a line, so no line starts with "·" and no date breaks inside; on a wider
// status, the items on a line with their separators.

const items = ['Kvalifitseeritud e-allkiri', 'Smart‑ID', '28. nov 2026, 22:43 UTC'];

async function statusOfWidth(width: number): Promise<EsignStatus> {
  const el = await fixture<EsignStatus>(html`<esign-status lang="et" state="success" style=${`inline-size: ${width}px`}></esign-status>`);
  el.message = 'Allkirjastatud';
  el.detail = items.join(DETAIL_SEPARATOR);
  await el.updateComplete;
  return el;
}

/** Each item's top edge and whether a line of the detail begins with the separator. */
function lines(el: EsignStatus) {
  const shown = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.detail .item')];
  const tops = shown.map((item) => Math.round(item.getBoundingClientRect().top));
  const separators = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.detail .sep')].map((sep) => getComputedStyle(sep).display);
  return { count: shown.length, tops, separators };
}

describe('a status detail of several items', () => {
  it('on a phone: one item a line, no separator shown; on a desktop: one line with its separators', async () => {
    const phone = lines(await statusOfWidth(320));
    expect(phone.count).to.equal(3);
    expect(new Set(phone.tops).size, 'three lines').to.equal(3);
    expect(phone.separators).to.deep.equal(['none', 'none']);
    const desktop = await statusOfWidth(900);
    const wide = lines(desktop);
    expect(new Set(wide.tops).size, 'one line').to.equal(1);
    expect(
      wide.separators.every((display) => display !== 'none'),
      'separators shown',
    ).to.equal(true);
    expect(desktop.shadowRoot!.querySelector('.detail')!.textContent.replace(/\s+/g, ' ').trim()).to.equal(items.join(' · ').replace(/\s+/g, ' '));
    await expect(desktop).to.be.accessible();
  });
});
