// A Node host's onResult, type-checked against the built package (`tsc -p test/types`, part of
// `npm run typecheck`): each kind's result typed from the service's answers, no cast needed, and
// a field an answer does not have is an error. Each @ts-expect-error must stay an error.
import type { IncomingMessage } from 'node:http';
import { createProxyHandler, type Country, type ProxyResult, type ProxySigner } from 'esign-elements/proxy';
import type { EsignSign } from 'esign-elements';

declare function logIn(visitor: string, person: { code: string; name: string; surname: string; country: string }): void;
declare function keep(name: string, content: string, signer: string): void;

export function onResult(result: ProxyResult): void {
  switch (result.kind) {
    case 'login':
      logIn(result.visitor, { code: result.result.code, name: result.result.name, surname: result.result.surname, country: result.result.country });
      console.log(result.result.certificate.subject.serialNumber, result.channel);
      // @ts-expect-error: a login's answer has no file
      console.log(result.result.file);
      break;
    case 'sign':
      keep(result.result.file.name, result.result.file.content, `${result.result.person.name} ${result.result.person.surname}`);
      // @ts-expect-error: a signing's answer names no personal code
      console.log(result.result.code);
      break;
    case 'hash':
      console.log(result.result.signatureValue.length);
      break;
    case 'document':
      if (result.operation === 'uploadDocument') console.log(result.result.document.uuid, result.result.signers[0]?.invitationUrl);
      if (result.operation === 'removeDocument') console.log(result.result.data.message);
      // @ts-expect-error: a document operation has no channel
      console.log(result.channel);
      break;
  }
}

createProxyHandler({
  baseUrl: 'https://service.example',
  accessToken: 'a-token-from-configuration',
  onResult,
  signer: (request) => (request.visitor ? { code: '50001018865', country: 'LT' } : null),
});

createProxyHandler({
  baseUrl: 'https://service.example',
  accessToken: 'a-token-from-configuration',
  // @ts-expect-error: a country the service does not know
  signer: () => ({ code: '50001018865', country: 'FI' }),
});

createProxyHandler({
  baseUrl: 'https://service.example',
  accessToken: 'a-token-from-configuration',
  // @ts-expect-error: the signer is a person with a code, not a code alone
  signer: () => '50001018865',
});

createProxyHandler({
  baseUrl: 'https://service.example',
  accessToken: 'a-token-from-configuration',
  // @ts-expect-error: a person is a country and a code: a code alone names nobody
  signer: () => ({ code: '50001018865' }),
});

/** What a host keeps at login, as the login result types it, passed on with no cast. */
export function personOf(result: ProxyResult, sign: EsignSign): ProxySigner | null {
  if (result.kind !== 'login') return null;
  const country: Country = result.result.country;
  sign.signer = { code: result.result.code, country: result.result.country };
  return { country, code: result.result.code };
}

/** A framework's request, as Express's is: an IncomingMessage with more on it. */
interface HostRequest extends IncomingMessage {
  sessionID: string;
}

createProxyHandler<HostRequest>({
  baseUrl: 'https://service.example',
  accessToken: 'a-token-from-configuration',
  // typed by the handler's type parameter: the host's own request, no cast
  visitor: (request) => request.raw.sessionID,
  onResult: (result) => console.log(result.request.raw.sessionID),
});

createProxyHandler({
  baseUrl: 'https://service.example',
  accessToken: 'a-token-from-configuration',
  // @ts-expect-error: without the type parameter the request is a plain IncomingMessage
  visitor: (request) => request.raw.sessionID,
});
