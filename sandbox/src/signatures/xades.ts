import { chainOf } from './used-certificates.js';
import { X509Certificate, createHash, webcrypto } from 'node:crypto';
import { DOMImplementation, DOMParser, XMLSerializer } from '@xmldom/xmldom';
import * as xmlCore from 'xml-core';
import * as xadesjs from 'xadesjs';
import type { ReportSignature as SimpleReportSignature } from '../types.js';
import type { TrustAnchors } from './validate-pdf.js';

xmlCore.setNodeDependencies({ DOMParser, XMLSerializer, DOMImplementation });
// eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- Node's Web Crypto is the browser's, typed apart by @types/node
xadesjs.Application.setEngine('NodeJS', webcrypto as unknown as Crypto);

const DSIG = 'http://www.w3.org/2000/09/xmldsig#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

export interface XadesSigner {
  privateKey: CryptoKey;
  certificate: Uint8Array;
}

export interface SignedPart {
  /** The URI as written in the reference (relative to the container root, URL-encoded). */
  uri: string;
  bytes: Uint8Array;
}

/**
 * A XAdES baseline B-B signature (SigningTime, SigningCertificateV2) over detached parts,
 * appended to `rootXml` (an empty signatures root element). Exclusive canonicalisation keeps
 * the signature valid inside its container root.
 */
export async function xadesSign(rootXml: string, parts: SignedPart[], signer: XadesSigner, id: string, time: Date): Promise<string> {
  const doc = new DOMParser().parseFromString(rootXml, 'application/xml');
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- xmldom's document and elements, which xadesjs and the DOM's types name as the browser's
  const signed = new xadesjs.SignedXml(doc as unknown as Document);
  signed.XmlSignature.SignedInfo.CanonicalizationMethod.Algorithm = EXC_C14N;
  signed.contentHandler = async (reference) => {
    const part = parts.find((p) => p.uri === reference.Uri);
    return part ? new Uint8Array(part.bytes) : null;
  };
  const certificate = Buffer.from(signer.certificate).toString('base64');
  const algorithm = signer.privateKey.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- xmldom's document and elements, which xadesjs and the DOM's types name as the browser's
  const signature = await signed.Sign(algorithm, signer.privateKey, doc as unknown as Document, {
    id,
    references: parts.map((p) => ({ uri: p.uri, hash: 'SHA-256', transforms: [] })),
    x509: [certificate],
    signingCertificateV2: certificate,
    signingTime: { value: time },
  });
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- xadesjs's element into xmldom's document: one DOM, two sets of types
  doc.documentElement!.appendChild(signature.GetXml() as never);
  return new XMLSerializer().serializeToString(doc);
}

function text(element: Element | undefined, localName: string, ns = DSIG): string {
  return element?.getElementsByTagNameNS(ns, localName)[0]?.textContent?.trim() ?? '';
}

function subjectName(certificate: X509Certificate): string {
  const fields = Object.fromEntries(
    certificate.subject.split('\n').map((line) => {
      const [key = '', value = ''] = line.split(/=(.*)/s);
      return [key, value];
    }),
  );
  const given = fields['GN'] ?? '';
  const surname = fields['SN'] ?? '';
  return given || surname ? `${given} ${surname}`.trim() : (fields['CN'] ?? '').replace(/\\,/g, ',');
}

/**
 * Checks every ds:Signature of a signatures file against the parts it references: the
 * digests (HASH_FAILURE), the signature value (SIG_CRYPTO_FAILURE) and the chain to the
 * sandbox CAs (NO_CERTIFICATE_CHAIN_FOUND).
 */
export async function xadesVerify(
  xml: string,
  resolve: (uri: string) => Uint8Array | undefined,
  trust: TrustAnchors,
  format: string,
  scope: string,
): Promise<SimpleReportSignature[]> {
  const doc = new DOMParser().parseFromString(xml, 'application/xml');
  const out: SimpleReportSignature[] = [];
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- xmldom's document and elements, which xadesjs and the DOM's types name as the browser's
  const signatures = Array.from(doc.getElementsByTagNameNS(DSIG, 'Signature') as unknown as ArrayLike<Element>);
  for (const element of signatures) {
    const id = element.getAttribute('Id') || `S-${out.length + 1}`;
    const time = Date.parse(text(element, 'SigningTime', 'http://uri.etsi.org/01903/v1.3.2#'));
    const base: SimpleReportSignature = {
      id,
      signatureFormat: format,
      ...(Number.isNaN(time) ? {} : { signingTime: time }),
      errors: [],
      warnings: [],
      infos: [],
      signatureScope: [{ name: scope, scope: 'FULL', value: 'Full document' }],
    };
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(Buffer.from(text(element, 'X509Certificate'), 'base64'));
    } catch {
      out.push({
        ...base,
        indication: 'INDETERMINATE',
        subIndication: 'NO_SIGNING_CERTIFICATE_FOUND',
        errors: ['The signing certificate is not in the signature.'],
      });
      continue;
    }
    base.signedBy = subjectName(certificate);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- xmldom's document and elements, which xadesjs and the DOM's types name as the browser's
    const references = Array.from(element.getElementsByTagNameNS(DSIG, 'Reference') as unknown as ArrayLike<Element>);
    const changed = references.some((reference) => {
      const uri = reference.getAttribute('URI') ?? '';
      if (uri.startsWith('#')) return false;
      const bytes = resolve(uri);
      if (!bytes) return true;
      return createHash('sha256').update(bytes).digest('base64') !== text(reference, 'DigestValue');
    });
    if (changed) {
      out.push({ ...base, indication: 'TOTAL_FAILED', subIndication: 'HASH_FAILURE', errors: ['A signed file was changed or is missing.'] });
      continue;
    }
    let verified = false;
    try {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- xmldom's document and elements, which xadesjs and the DOM's types name as the browser's
      const signed = new xadesjs.SignedXml(doc as unknown as Document);
      signed.LoadXml(element);
      signed.contentHandler = async (reference) => {
        const bytes = resolve(reference.Uri ?? '');
        return bytes ? new Uint8Array(bytes) : null;
      };
      verified = await signed.Verify();
    } catch {
      verified = false;
    }
    if (!verified) {
      out.push({ ...base, indication: 'TOTAL_FAILED', subIndication: 'SIG_CRYPTO_FAILURE', errors: ["The signature value does not match the signer's key."] });
      continue;
    }
    let chained = false;
    try {
      const issuing = new X509Certificate(Buffer.from(trust.issuing));
      chained = certificate.verify(issuing.publicKey) && issuing.verify(new X509Certificate(Buffer.from(trust.root)).publicKey);
    } catch {
      chained = false;
    }
    if (!chained) {
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
      certificateChain: chainOf(new Uint8Array(certificate.raw), trust.issuing, trust.used),
    });
  }
  return out;
}
