/*
 * The service's value types as the sandbox serves them. Written from the service's interface and
 * what is known beyond it; the sandbox shares no code with the widget, so the widget's tests check it.
 */

export type Locale = 'lt' | 'en';
export type Country = 'LT' | 'LV' | 'EE';
export type FileType = 'pdf' | 'asice' | 'adoc' | 'bdoc';
export type MessageFormat = 'GSM-7' | 'UCS-2';
export type HashAlgorithm = 'SHA256' | 'SHA512';
export type SignaturePosition = 'auto' | 'left_top' | 'left_bottom' | 'right_top' | 'right_bottom';
export type SignaturePage = 'first_page' | 'last_page';

export interface CertificateObject {
  name: string;
  subject: {
    country: string;
    organisation: string | null;
    organisation_unit: string | null;
    common_name: string;
    surname: string;
    name: string;
    serial_number: string;
  };
  issuer: { country: string; organisation: string; common_name: string };
  valid_from: string;
  valid_to: string;
  value: string;
}

export interface SanctionsRecord {
  id: number;
  reference: string;
  first_name: string;
  last_name: string;
  full_name: string;
  date_of_birth: string;
  place_of_birth: string;
  aka: string;
  gender: string;
  document_number: string;
  country_of_origin: string;
  type_sdn_or_entity: string;
  name_of_the_list: string;
  date_of_publication: string;
  date_of_publication_of_the_list: string;
  search_created_at: string;
  associates: { parent: string };
  image_url: string;
  date_of_death: string;
}

export interface PepsRecord {
  id: number;
  reference: string;
  first_name: string;
  last_name: string;
  full_name: string;
  political_position: string;
  associates: { parent: string };
  aka: string;
  date_of_birth: string;
  place_of_birth: string;
  gender: string;
  country_of_origin: string;
  country_of_activity: string;
  search_created_at: string;
  date_of_death: string;
}

/** One signature of a DSS simple report, as much of it as the sandbox fills. */
export interface ReportSignature {
  id: string;
  signatureFormat: string;
  signingTime?: number;
  bestSignatureTime?: number;
  signedBy?: string;
  indication?: 'TOTAL_PASSED' | 'INDETERMINATE' | 'TOTAL_FAILED';
  subIndication?: string | null;
  errors: string[];
  warnings: string[];
  infos: string[];
  [key: string]: unknown;
}

export interface ValidationReport {
  simpleReport: Record<string, unknown>;
  diagnosticData: Record<string, unknown>;
}
