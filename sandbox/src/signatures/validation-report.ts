import type { ValidationReport } from '../types.js';
import { containerSignatures, isZip } from './containers.js';
import { pdfSignatures, type TrustAnchors } from './validate-pdf.js';
import { usedCertificatesReport, type UsedCertificates } from './used-certificates.js';

function localIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * The validation report in the shape of the interface (DSS SimpleReport and DiagnosticData
 * as JSON): every PAdES signature of a PDF and every XAdES signature of an ASiC-E, BDOC or
 * ADOC container, checked against the document's bytes and the sandbox test CA.
 */
export async function validationReport(filename: string, bytes: Uint8Array, now: number, trust: TrustAnchors): Promise<ValidationReport> {
  const used: UsedCertificates = new Map();
  const collecting = { ...trust, used };
  const pdf = Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-' ? await pdfSignatures(bytes, collecting) : [];
  const container = isZip(bytes) ? await containerSignatures(bytes, collecting) : [];
  const signatures = [...pdf, ...container];
  const ids = signatures.map((s) => s.id);
  const valid = signatures.filter((s) => s.indication === 'TOTAL_PASSED').length;
  return {
    simpleReport: {
      validationTime: now,
      firstTimestampId: null,
      documentFilename: filename,
      validSignaturesCount: valid,
      signatureIdList: ids,
      timestampIdList: [],
      firstSignatureId: ids[0] ?? null,
      signaturesCount: signatures.length,
      jaxbModel: {
        validationPolicy: {
          policyName: 'esign-elements sandbox policy',
          policyDescription: 'Sandbox validation: signatures are verified against the document and the sandbox test CA.',
        },
        documentName: filename,
        validSignaturesCount: valid,
        signaturesCount: signatures.length,
        containerType: /\.(asice|bdoc|adoc)$/i.test(filename) ? 'ASiC-E' : null,
        signatureOrTimestamp: signatures,
        semantic: [],
        validationTime: now,
      },
    },
    diagnosticData: {
      DocumentName: filename,
      ValidationDate: localIso(now),
      Signatures: signatures.map((s) => ({
        Id: s.id,
        SignatureFilename: filename,
        ClaimedSigningTime: s.signingTime ? new Date(Number(s.signingTime)).toISOString() : null,
      })),
      UsedCertificates: usedCertificatesReport(used, trust.root),
      UsedRevocations: [],
      UsedTimestamps: [],
      OriginalDocuments: [],
      TrustedLists: [],
    },
  };
}
