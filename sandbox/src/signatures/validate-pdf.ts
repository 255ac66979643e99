import { chainOf, type UsedCertificates } from './used-certificates.js';
import { X509Certificate, createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { ReportSignature as SimpleReportSignature } from '../types.js';
import { engine } from './pki.js';

export interface TrustAnchors {
  /** Filled with the certificates the signatures used (for the report's UsedCertificates). */
  used?: UsedCertificates;
  root: Uint8Array;
  issuing: Uint8Array;
}

const MESSAGE_DIGEST = '1.2.840.113549.1.9.4';
const SIGNING_CERTIFICATE_V2 = '1.2.840.113549.1.9.16.2.47';
const GIVEN_NAME = '2.5.4.42';
const SURNAME = '2.5.4.4';
const COMMON_NAME = '2.5.4.3';

function attribute(name: pkijs.RelativeDistinguishedNames, oid: string): string {
  const found = name.typesAndValues.find((t) => t.type === oid);
  return found ? String((found.value.valueBlock as { value?: unknown }).value ?? '') : '';
}

function signerName(certificate: pkijs.Certificate): string {
  const given = attribute(certificate.subject, GIVEN_NAME);
  const surname = attribute(certificate.subject, SURNAME);
  return given || surname ? `${given} ${surname}`.trim() : attribute(certificate.subject, COMMON_NAME);
}

/** Whether a certificate chains to the sandbox's issuing and root CAs. */
function chainsToSandbox(der: ArrayBuffer, trust: TrustAnchors): boolean {
  try {
    const certificate = new X509Certificate(Buffer.from(der));
    const issuing = new X509Certificate(Buffer.from(trust.issuing));
    const root = new X509Certificate(Buffer.from(trust.root));
    return certificate.verify(issuing.publicKey) && issuing.verify(root.publicKey);
  } catch {
    return false;
  }
}

function pdfTime(window: string): number | undefined {
  const found = /\/M\s*\(D:(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)/.exec(window);
  if (!found) return undefined;
  const [, y = 0, mo = 1, d, h, mi, s] = found.map(Number);
  return Date.UTC(y, mo - 1, d, h, mi, s);
}

/**
 * Reads and checks every signature of a PDF: the signed byte ranges against the CMS
 * message digest (HASH_FAILURE), the CMS signature (SIG_CRYPTO_FAILURE), and the signer's
 * certificate against the sandbox CAs (NO_CERTIFICATE_CHAIN_FOUND otherwise).
 */
export async function pdfSignatures(bytes: Uint8Array, trust: TrustAnchors): Promise<SimpleReportSignature[]> {
  const text = Buffer.from(bytes).toString('latin1');
  const out: SimpleReportSignature[] = [];
  const ranges = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;
  for (let found = ranges.exec(text); found; found = ranges.exec(text)) {
    const [a = 0, b = 0, c = 0, d = 0] = found.slice(1).map(Number);
    const id = `S-PDF-${out.length + 1}`;
    const window = text.slice(text.lastIndexOf(' obj', found.index), text.indexOf('endobj', found.index));
    const base: SimpleReportSignature = {
      id,
      signatureFormat: 'PAdES-BASELINE-B',
      signingTime: pdfTime(window),
      errors: [],
      warnings: [],
      infos: [],
      signatureScope: [{ name: 'Full PDF', scope: 'PARTIAL', value: `The document ByteRange: [${a}, ${b}, ${c}, ${d}]` }],
    };
    // the whole placeholder: the structure's own length ends it, the zeros after it are ignored
    // (stripping them would also strip a signature whose last bytes are zero)
    const hex = text.slice(b + 1, c - 1);
    let signedData: pkijs.SignedData;
    try {
      const parsed = asn1js.fromBER(new Uint8Array(Buffer.from(hex, 'hex')));
      signedData = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: parsed.result }).content });
    } catch {
      out.push({ ...base, indication: 'TOTAL_FAILED', subIndication: 'FORMAT_FAILURE', errors: ['The signature is not a readable CMS structure.'] });
      continue;
    }
    const signerInfo = signedData.signerInfos[0];
    const certificate = signedData.certificates?.find(
      (cert): cert is pkijs.Certificate =>
        cert instanceof pkijs.Certificate && signerInfo?.sid instanceof pkijs.IssuerAndSerialNumber && cert.serialNumber.isEqual(signerInfo.sid.serialNumber),
    );
    if (!signerInfo || !certificate) {
      out.push({
        ...base,
        indication: 'INDETERMINATE',
        subIndication: 'NO_SIGNING_CERTIFICATE_FOUND',
        errors: ['The signing certificate is not in the signature.'],
      });
      continue;
    }
    base.signedBy = signerName(certificate);
    const data = Buffer.concat([bytes.subarray(a, a + b), bytes.subarray(c, c + d)]);
    const attributes = signerInfo.signedAttrs?.attributes ?? [];
    const digestValue: unknown = attributes.find((attr) => attr.type === MESSAGE_DIGEST)?.values[0];
    const messageDigest = digestValue instanceof asn1js.OctetString ? digestValue : undefined;
    const digest = createHash('sha256').update(data).digest();
    if (!messageDigest || !Buffer.from(messageDigest.valueBlock.valueHexView).equals(digest)) {
      out.push({ ...base, indication: 'TOTAL_FAILED', subIndication: 'HASH_FAILURE', errors: ['The signed bytes of the document were changed.'] });
      continue;
    }
    let verified = false;
    try {
      verified =
        (await signedData.verify({ signer: 0, data: new Uint8Array(data).buffer, checkChain: false, extendedMode: true }, engine)).signatureVerified === true;
    } catch {
      verified = false;
    }
    if (!verified) {
      out.push({ ...base, indication: 'TOTAL_FAILED', subIndication: 'SIG_CRYPTO_FAILURE', errors: ["The signature value does not match the signer's key."] });
      continue;
    }
    if (!attributes.some((attr) => attr.type === SIGNING_CERTIFICATE_V2)) base.warnings = ['The signing-certificate-v2 attribute is missing.'];
    if (!chainsToSandbox(certificate.toSchema(true).toBER(false), trust)) {
      out.push({
        ...base,
        indication: 'INDETERMINATE',
        subIndication: 'NO_CERTIFICATE_CHAIN_FOUND',
        errors: ['The certificate does not chain to the sandbox test CA.'],
      });
      continue;
    }
    out.push({
      ...base,
      signatureLevel: 'QESig',
      indication: 'TOTAL_PASSED',
      subIndication: null,
      certificateChain: chainOf(new Uint8Array(certificate.toSchema(true).toBER(false)), trust.issuing, trust.used),
    });
  }
  return out;
}
