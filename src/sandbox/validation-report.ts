import type { SimpleReportSignature, ValidationReport } from '../client/types.js';
import { readNotes } from './signed-file.js';

function localIso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/**
 * The validation report in the shape of the interface (DSS SimpleReport and DiagnosticData
 * as JSON). The sandbox does not make real signatures yet: each sandbox note found in the
 * document is reported as a signature that failed, saying why.
 */
export function validationReport(filename: string, bytes: Uint8Array, now: number): ValidationReport {
  const notes = readNotes(bytes);
  const signatures: SimpleReportSignature[] = notes.map((note) => ({
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
  const ids = signatures.map((s) => s.id as string);
  return {
    simpleReport: {
      validationTime: now,
      firstTimestampId: null,
      documentFilename: filename,
      validSignaturesCount: 0,
      signatureIdList: ids,
      timestampIdList: [],
      firstSignatureId: ids[0] ?? null,
      signaturesCount: signatures.length,
      jaxbModel: {
        validationPolicy: {
          policyName: 'esign-elements sandbox policy',
          policyDescription: 'Sandbox validation: reports sandbox notes; no signature is valid.',
        },
        documentName: filename,
        validSignaturesCount: 0,
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
      Signatures: notes.map((note) => ({ Id: note.signatureId, SignatureFilename: filename, ClaimedSigningTime: note.time })),
      UsedCertificates: [],
      UsedRevocations: [],
      UsedTimestamps: [],
      OriginalDocuments: [],
      TrustedLists: [],
    },
  };
}
