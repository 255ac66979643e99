import type { Locale as ServiceLocale } from '../types.js';

/** The sandbox's failure messages in the service's two locales. `{x}` marks a value. */
const MESSAGES = {
  invalidParameter: { en: 'Invalid parameter [{field}]: {reason}', lt: 'Invalid parameter [{field}]: {reason}' },
  required: { en: 'Value is required', lt: 'Reikšmė privaloma' },
  invalidType: { en: 'Invalid type', lt: 'Neteisingas tipas' },
  invalidMessageFormat: { en: 'Invalid message format', lt: 'Neteisingas žinutės formatas' },
  invalidCountry: { en: 'Invalid country code', lt: 'Neteisingas šalies kodas' },
  invalidAccess: { en: 'Access must be private or public', lt: 'Prieiga turi būti private arba public' },
  invalidHashAlgorithm: { en: 'Invalid hash algorithm', lt: 'Neteisingas maišos algoritmas' },
  invalidHash: { en: 'Hash must be {length} lowercase hex characters', lt: 'Maiša turi būti {length} mažųjų šešioliktainių simbolių' },
  invalidPosition: { en: 'Invalid signature position', lt: 'Neteisinga parašo vieta' },
  invalidPage: { en: 'Invalid signature page', lt: 'Neteisingas parašo puslapis' },
  invalidLevel: { en: 'Invalid certificate level', lt: 'Neteisingas sertifikato lygis' },
  invalidLanguage: { en: 'Invalid language', lt: 'Neteisinga kalba' },
  messageTooLong: { en: 'Message is longer than {limit} characters', lt: 'Žinutė ilgesnė nei {limit} simbolių' },
  messageNotGsm7: { en: 'Message has characters outside GSM-7', lt: 'Žinutėje yra ne GSM-7 simbolių' },
  messageNotAscii: { en: 'Message must be ASCII', lt: 'Žinutė turi būti ASCII' },
  invalidBoolean: { en: 'Must be true or false', lt: 'Turi būti true arba false' },
  invalidBase64: { en: 'Content must be base64', lt: 'Turinys turi būti base64' },
  invalidFile: { en: 'File object must hold files with name and content', lt: 'Failo objekte turi būti failai su pavadinimu ir turiniu' },
  notTheDocument: { en: 'The file is not the document of this link', lt: 'Failas nėra šios nuorodos dokumentas' },
  fileMissing: { en: 'File object for the type is missing', lt: 'Trūksta nurodyto tipo failo objekto' },
  invalidEmail: { en: 'Invalid e-mail address', lt: 'Neteisingas el. pašto adresas' },
  invalidUrl: { en: 'Invalid URL', lt: 'Neteisingas URL' },
  invalidMinutes: { en: 'Must be a positive whole number of minutes', lt: 'Turi būti teigiamas sveikas minučių skaičius' },
  deleteBeforeExpiry: { en: 'Must not be less than expire_after', lt: 'Negali būti mažiau nei expire_after' },
  invalidSigners: { en: 'Signers must be a list of signers', lt: 'Pasirašantieji turi būti sąrašas' },
  accessToken: { en: 'Access token is invalid', lt: 'Neteisingas prieigos raktas' },
  phoneFormat: { en: 'Phone number has a wrong format', lt: 'Neteisingas telefono numerio formatas' },
  codeFormat: { en: 'Personal code has a wrong format', lt: 'Neteisingas asmens kodo formatas' },
  refused: { en: 'The person refused or cancelled the operation', lt: 'Asmuo atsisakė arba atšaukė operaciją' },
  wrongCode: { en: 'The person chose a wrong verification code', lt: 'Asmuo pasirinko neteisingą kontrolinį kodą' },
  expired: { en: 'The session expired before the person confirmed', lt: 'Sesija baigėsi asmeniui nepatvirtinus' },
  corrupted: { en: 'The document is corrupted or unusable', lt: 'Dokumentas sugadintas arba netinkamas' },
  notUser: { en: 'The person is not a user of the service', lt: 'Asmuo nėra paslaugos naudotojas' },
  sessionNotFound: { en: 'Session for given token was not found', lt: 'Session for given token was not found' },
  notQualified: { en: 'The account is not qualified', lt: 'Paskyra nėra kvalifikuota' },
  certificateTimeout: { en: 'Timed out while obtaining the certificate', lt: 'Baigėsi laikas gaunant sertifikatą' },
  processing: { en: 'Processing failed', lt: 'Apdorojimas nepavyko' },
  providerError: { en: 'Technical error at the identity provider: {detail}', lt: 'Techninė tapatybės teikėjo klaida: {detail}' },
  fileType: { en: 'Invalid file type. Allowed file types: pdf, adoc, asice, bdoc', lt: 'Invalid file type. Allowed file types: pdf, adoc, asice, bdoc' },
  documentNotFound: { en: 'Document was not found', lt: 'Document was not found' },
  signerNotFound: { en: 'Signer was not found', lt: 'Pasirašantysis nerastas' },
  requestNumber: { en: 'Request number is invalid', lt: 'Request number is invalid' },
  invited: { en: 'Invited to sign', lt: 'Pakviesta pasirašyti' },
  uploaded: { en: 'Document uploaded', lt: 'Dokumentas įkeltas' },
  removed: { en: 'Document was successfully removed', lt: 'Dokumentas sėkmingai pašalintas' },
  malformed: { en: 'Request body must be a JSON object', lt: 'Užklausos turinys turi būti JSON objektas' },
  unknownOperation: { en: 'Not found', lt: 'Nerasta' },
} as const satisfies Record<string, Record<ServiceLocale, string>>;

export type MessageKey = keyof typeof MESSAGES;

export function message(locale: ServiceLocale, key: MessageKey, values: Record<string, string | number> = {}): string {
  return MESSAGES[key][locale].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? ''));
}
