import type { SimpleReportSignature, ValidationReport } from '../client/types.js';
import { readNotes } from './signed-file.js';
import { pdfSignatures, type TrustAnchors } from './validate-pdf.js';

function localIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * The validation report in the shape of the interface (DSS SimpleReport and DiagnosticData
 * as JSON). PDF signatures are checked for real; containers are not signed for real yet, so
 * each sandbox note found in one is reported as a signature that failed, saying why.
 */
export async function validationReport(filename: string, bytes: Uint8Array, now: number, trust: TrustAnchors): Promise<ValidationReport> {
  const notes = readNotes(bytes);
  const pdf = Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-' ? await pdfSignatures(bytes, trust) : [];
  const noted: SimpleReportSignature[] = notes.map((note) => ({
    id: note.signatureId,
    signatureFormat: filename.endsWith('.pdf') ? 'PAdES-BASELINE-B' : 'XAdES-BASELINE-B',
    signatureLevel: 'NA',
    signingTime: Date.parse(note.time),
    bestSignatureTime: now,
    signedBy: note.signer,
    indication: 'TOTAL_FAILED',
    subIndication: 'FORMAT_FAILURE',
    errors: ['The esign-elements sandbox placed a note here, not an electronic signature.'],
    warnings: [],
    infos: [`Channel: ${note.channel}; personal code ${note.code} (${note.country})`],
    certificateChain: { certificate: [] },
    signatureScope: [{ name: filename, scope: 'FULL', value: 'Full document' }],
  }));
  const signatures = [...pdf, ...noted];
  const ids = signatures.map((s) => s.id as string);
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
          policyDescription: 'Sandbox validation: PDF signatures are verified against the sandbox test CA; container notes are not signatures.',
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
      Signatures: signatures.map((s) => ({ Id: s.id, SignatureFilename: filename, ClaimedSigningTime: s.signingTime ? new Date(Number(s.signingTime)).toISOString() : null })),
      UsedCertificates: [],
      UsedRevocations: [],
      UsedTimestamps: [],
      OriginalDocuments: [],
      TrustedLists: [],
    },
  };
}
