// A React 19 host's code, type-checked against the built package with no declarations of its own
// (`tsc -p test/types`, part of `npm run typecheck`). Each @ts-expect-error must stay an error.
import { useRef } from 'react';
import type { AuthenticatedDetail, EsignErrorDetail, EsignIdentify as IdentifyElement } from 'esign-elements';
import { EsignDocument, EsignIdentify, EsignSign } from 'esign-elements/react';

export function Login({ onPerson }: { onPerson: (code: string) => void }) {
  const ref = useRef<IdentifyElement>(null);
  return (
    <EsignIdentify
      ref={ref}
      endpoint="/esign"
      channels={['smartid', 'mobile']}
      country="LT"
      onAuthenticated={(event) => onPerson(event.detail.person.code)}
      onError={(event) => console.warn(event.detail.code, event.detail.retryable)}
    />
  );
}

export function Signing({ file }: { file: File }) {
  return <EsignSign endpoint="/esign" files={[file]} signer={{ code: '30303039914', country: 'LT' }} onSigned={(event) => console.log(event.detail.file.name)} />;
}

export function Document({ id }: { id: string }) {
  return <EsignDocument endpoint="/esign" documentId={id} onDocumentRemoved={(event) => console.log(event.detail.documentId)} />;
}

/** The elements themselves, as React 19 renders custom elements. */
export function NativeLogin() {
  const authenticated = (event: CustomEvent<AuthenticatedDetail>) => console.log(event.detail.person.surname);
  const failed = (event: CustomEvent<EsignErrorDetail>) => console.log(event.detail.message);
  return (
    <>
      <esign-identify endpoint="/esign" channels="smartid mobile" poll-interval="1000" hide-success onesign-authenticated={authenticated} onesign-error={failed} />
      <esign-document document-id="abc" callback-url="https://host.example/done" onesign-document-removed={(event) => console.log(event.detail.documentId)} />
      <esign-sign endpoint="/esign" signature-position="right_bottom" className="wide" style={{ maxWidth: 480 }} />
      <esign-hash-sign endpoint="/esign" hash="ab" signer="50001018865,LT,+37060000666" />
    </>
  );
}

export function Mistakes() {
  return (
    <>
      {/* @ts-expect-error: a channel list holds channels */}
      <EsignIdentify channels={['bankid']} />
      {/* @ts-expect-error: the authenticated detail has no file */}
      <EsignIdentify onAuthenticated={(event) => console.log(event.detail.file)} />
      {/* @ts-expect-error: a login signs nothing: no onSigned */}
      <EsignIdentify onSigned={() => undefined} />
      {/* @ts-expect-error: a login has no signer to fix */}
      <EsignIdentify signer={{ code: '30303039914' }} />
      {/* @ts-expect-error: no such element */}
      <esign-identity endpoint="/esign" />
      {/* @ts-expect-error: the event's detail is typed */}
      <esign-identify onesign-authenticated={(event: CustomEvent<{ other: number }>) => event.detail.other.toFixed()} />
      {/* @ts-expect-error: hide-success is a boolean or its attribute string, not a number */}
      <esign-identify hide-success={1} />
    </>
  );
}
