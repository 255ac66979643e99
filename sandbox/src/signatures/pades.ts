import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { SignaturePage, SignaturePosition } from '../types.js';
import { PdfFile, dictionaryAt } from './pdf-update.js';
import { engine } from './pki.js';

/** Room for the CMS signature in /Contents, in bytes (hex doubles it). */
const CONTENTS_BYTES = 8192;
const BYTE_RANGE_PLACEHOLDER = '/ByteRange [0 0000000000 0000000000 0000000000]';

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
} as const;

export interface PadesSigner {
  privateKey: CryptoKey;
  certificate: Uint8Array;
  /** Issuing CA certificates, included in the CMS for validators. */
  chain: Uint8Array[];
  name: string;
}

export interface PadesOptions {
  position?: SignaturePosition;
  page?: SignaturePage;
  time: Date;
}

export class UnreadablePdfError extends Error {}

function pdfString(text: string): string {
  return `(${text
    .normalize('NFD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[\\()]/g, '\\$&')})`;
}

function pdfDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `D:${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}+00'00'`;
}

const BOX = { width: 220, height: 54 };

function placement(mediaBox: number[], position: SignaturePosition | undefined): [number, number] {
  const [x0 = 0, y0 = 0, x1 = 595, y1 = 842] = mediaBox;
  const margin = 36;
  const left = x0 + margin;
  const right = x1 - margin - BOX.width;
  const bottom = y0 + margin;
  const top = y1 - margin - BOX.height;
  if (position === 'left_top') return [left, top];
  if (position === 'left_bottom') return [left, bottom];
  if (position === 'right_top') return [right, top];
  return [right, bottom];
}

/** SigningCertificateV2 (RFC 5035) with the SHA-256 hash of the signer's certificate. */
function signingCertificateV2(certificate: Uint8Array): asn1js.Sequence {
  const hash = createHash('sha256').update(certificate).digest();
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: new Uint8Array(hash).buffer })] });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

/** A detached CMS SignedData (ETSI.CAdES.detached, B-B) over a digest. */
async function cms(signer: PadesSigner, digest: Uint8Array): Promise<Uint8Array> {
  const certificate = pkijs.Certificate.fromBER(new Uint8Array(signer.certificate));
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [
      new pkijs.SignerInfo({
        version: 1,
        sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
        signedAttrs: new pkijs.SignedAndUnsignedAttributes({
          type: 0,
          attributes: [
            new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
            new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: new Uint8Array(digest).buffer })] }),
            new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2(signer.certificate)] }),
          ],
        }),
      }),
    ],
    certificates: [certificate, ...signer.chain.map((der) => pkijs.Certificate.fromBER(new Uint8Array(der)))],
  });
  await signedData.sign(signer.privateKey, 0, 'SHA-256', undefined, engine);
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}

/** Adds the signature field to the document catalog's AcroForm (or makes one). */
function withField(pdf: PdfFile, catalog: string, fieldRef: string, objects: Map<number, string>): string {
  const inline = /\/AcroForm\s*<</.exec(catalog);
  if (inline) {
    const start = catalog.indexOf('<<', inline.index + 1);
    const form = dictionaryAt(catalog, start);
    const updated = /\/Fields\s*\[/.test(form) ? form.replace(/\/Fields\s*\[/, `/Fields [${fieldRef} `) : `${form.slice(0, -2)} /Fields [${fieldRef}] >>`;
    return catalog.replace(form, /\/SigFlags/.test(updated) ? updated : `${updated.slice(0, -2)} /SigFlags 3 >>`);
  }
  const indirect = /\/AcroForm\s+(\d+)\s+(\d+)\s+R/.exec(catalog);
  if (indirect) {
    const form = pdf.object(`${indirect[1]} ${indirect[2]}`);
    if (form) {
      const updated = /\/Fields\s*\[/.test(form) ? form.replace(/\/Fields\s*\[/, `/Fields [${fieldRef} `) : `${form.slice(0, -2)} /Fields [${fieldRef}] >>`;
      objects.set(Number(indirect[1]), /\/SigFlags/.test(updated) ? updated : `${updated.slice(0, -2)} /SigFlags 3 >>`);
      return catalog;
    }
  }
  return `${catalog.slice(0, -2)} /AcroForm << /Fields [${fieldRef}] /SigFlags 3 >> >>`;
}

/**
 * Signs a PDF with PAdES baseline B-B: a CMS `ETSI.CAdES.detached` signature with the
 * signing-certificate-v2 attribute, in an incremental update, so earlier signatures stay
 * valid. A position gives a visible appearance (name and date) on the first or last page.
 */
export async function padesSign(bytes: Uint8Array, signer: PadesSigner, options: PadesOptions): Promise<Uint8Array> {
  let pdf: PdfFile;
  try {
    pdf = new PdfFile(bytes);
  } catch (cause) {
    throw new UnreadablePdfError('not a readable PDF', { cause });
  }
  const catalog = pdf.object(pdf.root);
  const pages = pdf.pages();
  const pageRef = options.page === 'first_page' ? pages[0] : pages[pages.length - 1];
  if (!catalog || !pageRef) throw new UnreadablePdfError('the page tree or catalog sits in object streams');
  const pageDict = pdf.object(pageRef);
  if (typeof pageDict !== 'string') throw new UnreadablePdfError('the page to sign sits in an object stream');
  const existing = (pdf.text.match(/\/FT\s*\/Sig\b/g) ?? []).length;
  const objects = new Map<number, string>();
  let next = pdf.size;
  const sigNum = next++;
  const widgetNum = next++;
  const time = options.time;

  objects.set(
    sigNum,
    `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${BYTE_RANGE_PLACEHOLDER} ` +
      `/Contents <${'0'.repeat(CONTENTS_BYTES * 2)}> /M (${pdfDate(time)}) /Name ${pdfString(signer.name)} >>`,
  );

  let rect = '[0 0 0 0]';
  let appearance = '';
  if (options.position) {
    const mediaBox = (/\/MediaBox\s*\[([^\]]*)\]/.exec(pageDict)?.[1] ?? '0 0 595 842').trim().split(/\s+/).map(Number);
    const [x, y] = placement(mediaBox, options.position);
    rect = `[${x} ${y} ${x + BOX.width} ${y + BOX.height}]`;
    const fontNum = next++;
    const formNum = next++;
    const stamp = time.toISOString().replace('T', ' ').slice(0, 16);
    const content = [
      `0.96 0.97 1 rg 0 0 ${BOX.width} ${BOX.height} re f`,
      `0.04 0.35 0.65 RG 1 w 0.5 0.5 ${BOX.width - 1} ${BOX.height - 1} re S`,
      `BT 0.04 0.2 0.4 rg /F1 8 Tf 8 ${BOX.height - 14} Td ${pdfString('Digitally signed by')} Tj`,
      `0 -13 Td /F1 10 Tf ${pdfString(signer.name)} Tj`,
      `0 -12 Td /F1 8 Tf ${pdfString(`${stamp} UTC - sandbox test CA`)} Tj ET`,
    ].join('\n');
    objects.set(fontNum, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
    objects.set(
      formNum,
      `<< /Type /XObject /Subtype /Form /BBox [0 0 ${BOX.width} ${BOX.height}] /Resources << /Font << /F1 ${fontNum} 0 R >> >> /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
    appearance = ` /AP << /N ${formNum} 0 R >>`;
  }
  objects.set(
    widgetNum,
    `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature${existing + 1}) /V ${sigNum} 0 R /P ${pageRef} R /Rect ${rect} /F 132${appearance} >>`,
  );
  // the widget belongs to the page and, as a field, to the catalog's form
  const annotRef = `${widgetNum} 0 R`;
  const annots = /\/Annots\s*\[([^\]]*)\]/.exec(pageDict);
  const annotsRef = /\/Annots\s+(\d+\s+\d+)\s+R/.exec(pageDict);
  let page: string;
  if (annots) page = pageDict.replace(annots[0], `/Annots [${annots[1]} ${annotRef}]`);
  else if (annotsRef) page = pageDict.replace(annotsRef[0], `/Annots [${pdf.object(annotsRef[1] ?? '')?.replace(/^\[|\]$/g, '') ?? ''} ${annotRef}]`);
  else page = `${pageDict.slice(0, -2)} /Annots [${annotRef}] >>`;
  objects.set(Number(pageRef.split(/\s+/)[0]), page);
  objects.set(Number(pdf.root.split(/\s+/)[0]), withField(pdf, catalog, annotRef, objects));

  const out = pdf.appendUpdate(objects, pdf.info ? `/Info ${pdf.info}` : '');
  const text = Buffer.from(out).toString('latin1');
  const sigAt = text.lastIndexOf(BYTE_RANGE_PLACEHOLDER);
  const contentsStart = text.indexOf('/Contents <', sigAt) + '/Contents '.length;
  const contentsEnd = text.indexOf('>', contentsStart) + 1;
  const pad = (n: number) => String(n).padStart(10, '0');
  const byteRange = `/ByteRange [0 ${pad(contentsStart)} ${pad(contentsEnd)} ${pad(out.length - contentsEnd)}]`;
  out.set(Buffer.from(byteRange, 'latin1'), sigAt);
  const digest = createHash('sha256').update(out.subarray(0, contentsStart)).update(out.subarray(contentsEnd)).digest();
  const signature = await cms(signer, new Uint8Array(digest));
  if (signature.length > CONTENTS_BYTES) throw new Error('signature larger than its reserved room');
  out.set(
    Buffer.from(
      Buffer.from(signature)
        .toString('hex')
        .padEnd(CONTENTS_BYTES * 2, '0'),
      'latin1',
    ),
    contentsStart + 1,
  );
  return out;
}
