import { createHash, X509Certificate } from 'node:crypto';

/** Certificates a validation met, by DSS-style id, collected while the signatures are checked. */
export type UsedCertificates = Map<string, Uint8Array>;

export function certificateId(der: Uint8Array): string {
  return `C-${createHash('sha256').update(der).digest('hex').slice(0, 32).toUpperCase()}`;
}

function commonName(dn: string): string {
  return /(?:^|\n)CN=([^\n]*)/.exec(dn)?.[1] ?? dn;
}

/** A signature's certificate chain as the DSS simple report lists it; the certificates are collected. */
export function chainOf(signer: Uint8Array, issuing: Uint8Array, used: UsedCertificates | undefined) {
  const ids = [signer, issuing].map((der) => {
    const id = certificateId(der);
    used?.set(id, der);
    return { id, qualifiedName: commonName(new X509Certificate(Buffer.from(der)).subject) };
  });
  return { certificate: ids };
}

/** `diagnosticData.UsedCertificates` as DSS writes it, from the certificates the signatures used. */
export function usedCertificatesReport(used: UsedCertificates, root: Uint8Array) {
  return [...used].map(([id, der]) => {
    const certificate = new X509Certificate(Buffer.from(der));
    return {
      Id: id,
      SubjectDistinguishedName: [{ Format: 'RFC2253', value: certificate.subject.split('\n').reverse().join(',') }],
      IssuerDistinguishedName: [{ Format: 'RFC2253', value: certificate.issuer.split('\n').reverse().join(',') }],
      SerialNumber: BigInt(`0x${certificate.serialNumber}`).toString(),
      CommonName: commonName(certificate.subject),
      NotBefore: new Date(certificate.validFrom).toISOString().slice(0, 19),
      NotAfter: new Date(certificate.validTo).toISOString().slice(0, 19),
      SelfSigned: certificate.subject === certificate.issuer,
      Trusted: certificate.checkIssued(new X509Certificate(Buffer.from(root))),
      CA: certificate.ca,
      Base64Encoded: Buffer.from(der).toString('base64'),
    };
  });
}
