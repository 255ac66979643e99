import type { SimpleReportSignature, ValidationReport } from '../../protocol/types.js';

export interface ReadSignature {
  id: string;
  signedBy: string;
  signingTime: Date | null;
  format: string;
  level: string;
  indication: string;
  subIndication: string;
  errors: string[];
  warnings: string[];
}

function asDate(value: unknown): Date | null {
  if (typeof value === 'number') return new Date(value);
  if (typeof value === 'string' && value) {
    const date = new Date(/^\d+$/.test(value) ? Number(value) : value);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return null;
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((item) =>
    // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an object with a value: String() takes whatever it holds
    typeof item === 'string' ? item : typeof item === 'object' && item && 'value' in item ? String((item as { value: unknown }).value) : JSON.stringify(item),
  );
}

/** Reads what a person needs from a DSS report, tolerating whatever is missing. */
export function readReport(report: ValidationReport | null | undefined): { signatures: ReadSignature[]; valid: number; total: number } {
  const simple = report?.simpleReport ?? {};
  const entries: SimpleReportSignature[] = Array.isArray(simple.jaxbModel?.signatureOrTimestamp) ? simple.jaxbModel.signatureOrTimestamp : [];
  const signatures = entries.map((entry, i) => ({
    id: String(entry.id ?? i + 1),
    signedBy: typeof entry.signedBy === 'string' ? entry.signedBy : '',
    signingTime: asDate(entry.signingTime ?? entry.bestSignatureTime),
    format: typeof entry.signatureFormat === 'string' ? entry.signatureFormat : '',
    level:
      typeof entry.signatureLevel === 'string'
        ? entry.signatureLevel
        : typeof entry['signatureLevel'] === 'object' && entry['signatureLevel']
          ? String((entry['signatureLevel'] as { value?: unknown }).value ?? '')
          : '',
    indication: typeof entry.indication === 'string' ? entry.indication : '',
    subIndication: typeof entry.subIndication === 'string' ? entry.subIndication : '',
    errors: strings(entry.errors),
    warnings: strings(entry.warnings),
  }));
  const total = typeof simple.signaturesCount === 'number' ? simple.signaturesCount : signatures.length;
  const valid =
    typeof simple.validSignaturesCount === 'number' ? simple.validSignaturesCount : signatures.filter((s) => s.indication === 'TOTAL_PASSED').length;
  return { signatures, valid, total };
}
