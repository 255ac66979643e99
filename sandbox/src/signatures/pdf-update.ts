import { inflateSync } from 'node:zlib';
import { latin1Bytes } from '../sample-pdf.js';

/**
 * Just enough PDF reading to append an incremental update: the last trailer, object
 * lookup among plain (uncompressed) objects, and the page tree. Objects inside object
 * streams are not read; callers fall back when a page cannot be found.
 */
export class PdfFile {
  readonly bytes: Uint8Array;
  readonly text: string;
  readonly size: number;
  readonly root: string;
  readonly info?: string;
  readonly prevXref: number;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.text = Buffer.from(bytes).toString('latin1');
    if (!this.text.startsWith('%PDF-')) throw new Error('not a PDF');
    const startxref = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(this.text.slice(-1024));
    if (!startxref) throw new Error('no startxref');
    this.prevXref = Number(startxref[1]);
    const trailer = this.#trailerAt(this.prevXref);
    const size = /\/Size\s+(\d+)/.exec(trailer);
    const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer);
    if (!size || !root?.[1]) throw new Error('no trailer');
    this.size = Number(size[1]);
    this.root = root[1];
    const info = /\/Info\s+(\d+\s+\d+\s+R)/.exec(trailer);
    if (info?.[1]) this.info = info[1];
  }

  #trailerAt(offset: number): string {
    const tail = this.text.slice(offset, offset + 65536);
    if (tail.startsWith('xref')) {
      const at = tail.indexOf('trailer');
      if (at < 0) throw new Error('no trailer');
      return dictionaryAt(tail, tail.indexOf('<<', at));
    }
    // an xref stream: its dictionary carries the trailer entries
    return dictionaryAt(tail, tail.indexOf('<<'));
  }

  #packed: Map<number, string> | undefined;

  /** Objects kept inside object streams (PDF 1.5+), by number; only FlateDecode streams are read. */
  #packedObjects(): Map<number, string> {
    if (this.#packed) return this.#packed;
    const packed = new Map<number, string>();
    const header = /\d+\s+\d+\s+obj\s*<</g;
    for (let found = header.exec(this.text); found; found = header.exec(this.text)) {
      const dictStart = found.index + found[0].length - 2;
      let dict: string;
      try {
        dict = dictionaryAt(this.text, dictStart);
      } catch {
        continue;
      }
      if (!/\/Type\s*\/ObjStm\b/.test(dict) || !/\/Filter\s*\/FlateDecode\b/.test(dict)) continue;
      const first = Number(/\/First\s+(\d+)/.exec(dict)?.[1]);
      const count = Number(/\/N\s+(\d+)/.exec(dict)?.[1]);
      let length = Number(/\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict)?.[1]);
      const lengthRef = /\/Length\s+(\d+\s+\d+)\s+R/.exec(dict);
      if (lengthRef) length = Number(this.object(lengthRef[1] ?? '')?.trim());
      const streamAt = this.text.indexOf('stream', dictStart + dict.length);
      const dataStart = streamAt + 6 + (this.text[streamAt + 6] === '\r' ? 2 : 1);
      if (!Number.isFinite(length) || !Number.isFinite(first)) continue;
      let data: string;
      try {
        data = inflateSync(this.bytes.subarray(dataStart, dataStart + length)).toString('latin1');
      } catch {
        continue;
      }
      const pairs = data.slice(0, first).trim().split(/\s+/).map(Number);
      for (let i = 0; i < count; i++) {
        const num = pairs[i * 2] ?? NaN;
        const offset = first + (pairs[i * 2 + 1] ?? NaN);
        const end = i + 1 < count ? first + (pairs[i * 2 + 3] ?? NaN) : data.length;
        packed.set(num, data.slice(offset, end).trim());
      }
    }
    this.#packed = packed;
    return packed;
  }

  /** The dictionary (or array) text of an object given as `N G`, from plain objects or object streams. */
  object(ref: string): string | null {
    const [num, gen] = ref.split(/\s+/);
    const pattern = new RegExp(`(?:^|[\\r\\n\\s])${num}\\s+${gen}\\s+obj\\b`, 'g');
    let last = -1;
    for (let found = pattern.exec(this.text); found; found = pattern.exec(this.text)) last = found.index + found[0].length;
    if (last < 0) {
      const packed = this.#packedObjects().get(Number(num));
      if (!packed) return null;
      if (packed.startsWith('<<')) return dictionaryAt(packed, 0);
      return packed.startsWith('[') ? packed.slice(0, packed.indexOf(']') + 1) : null;
    }
    const start = this.text.slice(last).search(/\S/) + last;
    if (this.text.startsWith('<<', start)) return dictionaryAt(this.text, start);
    if (this.text.startsWith('[', start)) return this.text.slice(start, this.text.indexOf(']', start) + 1);
    return null;
  }

  /** Page references in reading order. */
  pages(): string[] {
    const catalog = this.object(this.root);
    const pagesRef = catalog && /\/Pages\s+(\d+\s+\d+\s+R)/.exec(catalog)?.[1];
    const out: string[] = [];
    const walk = (ref: string, depth: number) => {
      if (depth > 32) return;
      const node = this.object(ref.replace(/\s+R$/, ''));
      if (!node) return;
      if (/\/Type\s*\/Pages\b/.test(node)) {
        const kids = /\/Kids\s*\[([^\]]*)\]/.exec(node)?.[1] ?? '';
        for (const kid of kids.match(/\d+\s+\d+\s+R/g) ?? []) walk(kid, depth + 1);
      } else if (/\/Type\s*\/Page\b/.test(node)) out.push(ref.replace(/\s+R$/, ''));
    };
    if (pagesRef) walk(pagesRef, 0);
    return out;
  }

  /** Appends objects (number → body text) as an incremental update with a classic xref table. */
  appendUpdate(objects: Map<number, string>, trailerExtra: string): Uint8Array {
    let body = this.text.endsWith('\n') ? '' : '\n';
    const offsets = new Map<number, number>();
    for (const [num, content] of [...objects].sort((a, b) => a[0] - b[0])) {
      offsets.set(num, this.bytes.length + body.length);
      body += `${num} 0 obj\n${content}\nendobj\n`;
    }
    const xrefAt = this.bytes.length + body.length;
    body += 'xref\n';
    for (const [num, offset] of [...offsets].sort((a, b) => a[0] - b[0])) {
      body += `${num} 1\n${String(offset).padStart(10, '0')} 00000 n \n`;
    }
    const newSize = Math.max(this.size, ...[...objects.keys()].map((n) => n + 1));
    body += `trailer\n<< /Size ${newSize} /Root ${this.root} /Prev ${this.prevXref} ${trailerExtra} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
    const tail = latin1Bytes(body);
    const out = new Uint8Array(this.bytes.length + tail.length);
    out.set(this.bytes);
    out.set(tail, this.bytes.length);
    return out;
  }
}

/** The balanced `<< … >>` starting at `start`. */
export function dictionaryAt(text: string, start: number): string {
  let depth = 0;
  for (let i = start; i < text.length - 1; i++) {
    const pair = text.slice(i, i + 2);
    if (pair === '<<') {
      depth++;
      i++;
    } else if (pair === '>>') {
      depth--;
      i++;
      if (depth === 0) return text.slice(start, i + 1);
    } else if (text[i] === '(') {
      // skip a literal string, which may hold unbalanced brackets
      let nested = 0;
      for (; i < text.length; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '(') nested++;
        else if (text[i] === ')' && --nested === 0) break;
      }
    }
  }
  throw new Error('unbalanced dictionary');
}
