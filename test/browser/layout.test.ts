import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/identify/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { PersonForm } from '../../src/internal/data/person.js';
import '../../src/elements/status/define.js';
import type { EsignStatus } from '../../src/elements/status/status.js';
import { maskCode, maskPhone } from '../../src/protocol/mask.js';
import { DETAIL_SEPARATOR } from '../../src/internal/session/session-words.js';

// What stays in place when text wraps or an error appears: measured in the browser's own layout.

const top = (el: Element) => Math.round(el.getBoundingClientRect().top);

async function identifyIn(width: number, lang: string): Promise<{ el: EsignIdentify; form: PersonForm & Element }> {
  const el = await fixture<EsignIdentify>(
    html`<div style="inline-size: ${width}px"><esign-identify endpoint="/esign" lang=${lang}></esign-identify></div>`,
  ).then((wrap) => wrap.firstElementChild as EsignIdentify);
  await el.updateComplete;
  const form = el.shadowRoot!.querySelector('esign-person-form') as unknown as PersonForm & Element & { updateComplete: Promise<boolean> };
  await form.updateComplete;
  return { el, form };
}

/** The distinct lines a piece of an element's text falls on. */
function linesOf(node: Text, piece: string): number {
  const start = node.data.indexOf(piece);
  const range = document.createRange();
  range.setStart(node, start);
  range.setEnd(node, start + piece.length);
  // a run in another font (the bullets) has a box of its own height: a line is a band of boxes that overlap
  const rects = [...range.getClientRects()].filter((rect) => rect.width > 0).sort((a, b) => a.top - b.top);
  let lines = 0;
  let bottom = -Infinity;
  for (const rect of rects) {
    if (rect.top >= bottom - 1) lines++;
    bottom = Math.max(bottom, rect.bottom);
  }
  return lines;
}

describe('layout', () => {
  it('a masked phone number or personal code is never split over two lines while waiting, at any phone width', async () => {
    const phone = maskPhone('+37060000666');
    const code = maskCode('50001018865');
    for (const [who, lang] of [
      [phone, 'ru'],
      [code, 'lt'],
    ] as const) {
      const el = await fixture<EsignStatus>(
        html`<esign-status lang=${lang} state="waiting" message="…" detail=${`Mobile-ID · ${who} · Sutartis-dėl-buto-nuomos-2026.pdf`}></esign-status>`,
      );
      const text = [...el.shadowRoot!.querySelector('.detail')!.childNodes].find((n): n is Text => n instanceof Text && n.data.includes(who))!;
      let wrapped = 0;
      for (let width = 220; width <= 400; width += 2) {
        el.style.inlineSize = `${width}px`;
        if (linesOf(text, text.data) > 1) wrapped++;
        expect(linesOf(text, who), `${who} on one line at ${width} px`).to.equal(1);
      }
      expect(wrapped, 'the line itself wraps at these widths: the check is real').to.be.above(0);
    }
  });

  it('the waiting detail: on a phone one item a line (no "·" at all); wider, a "·" between two items of a line and none at a line\'s start', async () => {
    const detail = ['Mobile-ID', maskPhone('+37060000666'), 'Sutartis-dėl-buto-nuomos-2026.pdf'].join(DETAIL_SEPARATOR);
    const el = await fixture<EsignStatus>(html`<esign-status lang="lt" state="waiting" message="…" detail=${detail}></esign-status>`);
    const items = () => [...el.shadowRoot!.querySelectorAll<HTMLElement>('.detail .item')];
    for (let width = 160; width <= 400; width += 8) {
      el.style.inlineSize = `${width}px`;
      const shown = items();
      expect(
        shown.map((item) => getComputedStyle(item).display),
        `${width} px`,
      ).to.deep.equal(['block', 'block', 'block']);
      expect(
        [...el.shadowRoot!.querySelectorAll('.detail .sep')].every((sep) => getComputedStyle(sep).display === 'none'),
        `no separator at ${width} px`,
      ).to.equal(true);
    }
    let broken = 0;
    for (let width = 460; width <= 900; width += 8) {
      el.style.inlineSize = `${width}px`;
      const box = el.shadowRoot!.querySelector('.detail .items')!.getBoundingClientRect();
      const shown = items();
      for (const [i, item] of shown.entries()) {
        if (i === 0) continue;
        const sep = item.querySelector('.sep')!.getBoundingClientRect();
        const startsALine = Math.round(item.getBoundingClientRect().top) > Math.round(shown[i - 1]!.getBoundingClientRect().top);
        if (startsALine) {
          broken++;
          // the "·" before the first item of a line lies outside the items' box, which clips it
          expect(sep.right, `no "·" at a line's start, at ${width} px`).to.be.at.most(box.left + 0.5);
        } else {
          expect(sep.left, `"·" between two items of a line, at ${width} px`).to.be.at.least(box.left);
          expect(Math.round(sep.top), `"·" level with its item, at ${width} px`).to.equal(Math.round(item.getBoundingClientRect().top));
        }
      }
    }
    expect(broken, 'lines do break between items at these widths: the check is real').to.be.above(0);
  });

  for (const lang of ['en', 'ru']) {
    it(`${lang}: the country and the personal code stay level when the code shows an error`, async () => {
      const { form } = await identifyIn(640, lang);
      const root = form.shadowRoot!;
      const select = root.querySelector('select')!;
      const code = root.querySelector<HTMLInputElement>('#code')!;
      expect(top(select), 'level before').to.equal(top(code));
      code.value = '12345678901';
      code.dispatchEvent(new Event('input'));
      form.validate();
      await (form as unknown as { updateComplete: Promise<boolean> }).updateComplete;
      expect(root.querySelector('#code-error'), 'the error is shown').to.exist;
      expect(top(select), 'level with the error shown').to.equal(top(code));
      const labels = [...root.querySelectorAll('label')];
      expect(labels.map(top), 'labels level').to.deep.equal([top(labels[0]!), top(labels[0]!)]);
    });
  }

  it('"Mobile-ID" is never broken at its hyphen, at any phone width', async () => {
    for (let width = 240; width <= 420; width += 10) {
      const { el } = await identifyIn(width, 'lt');
      const labels = [...el.shadowRoot!.querySelectorAll('.channel')];
      expect(labels).to.have.length(2);
      for (const label of labels) {
        const text = [...label.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim())!;
        const range = document.createRange();
        range.selectNodeContents(text);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        expect(lines.size, `${text.textContent!.trim()} on one line at ${width} px`).to.equal(1);
      }
    }
  });
});
