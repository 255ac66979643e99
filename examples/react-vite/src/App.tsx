import { useState } from 'react';
import type { AuthenticatedDetail, SignedDetail } from 'esign-elements';
import { EsignIdentify, EsignSign } from 'esign-elements/react';

/**
 * A login, then a PDF signature. The events are signals for the page only: the host's server
 * learns the result from the proxy's onResult, never from the browser.
 */
export function App() {
  const [person, setPerson] = useState<AuthenticatedDetail['person'] | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [signed, setSigned] = useState<SignedDetail['file'] | null>(null);

  return (
    <main style={{ maxWidth: 560, margin: '0 auto', padding: 16, fontFamily: 'system-ui' }}>
      <h1>React + Vite</h1>
      <section>
        <h2>Log in</h2>
        <EsignIdentify endpoint="/esign" channels={['smartid', 'mobile']} onAuthenticated={(event) => setPerson(event.detail.person)} />
        {person && <p id="welcome">Welcome, {person.name} {person.surname}</p>}
      </section>
      <section>
        <h2>Sign a PDF</h2>
        <input id="pdf" type="file" accept=".pdf" onChange={(event) => setFiles([...(event.target.files ?? [])])} />
        <EsignSign endpoint="/esign" files={files} onSigned={(event) => setSigned(event.detail.file)} />
        {signed && <p id="signed">Signed: {signed.name}</p>}
      </section>
    </main>
  );
}
