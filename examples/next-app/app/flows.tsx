'use client';

import { useState } from 'react';
import type { AuthenticatedDetail } from 'esign-elements';
import { EsignIdentify, EsignSign } from 'esign-elements/react';

/**
 * Rendered on the server and hydrated: the components add their event listeners themselves, so
 * onAuthenticated and onSigned work after hydration. The events are signals for the page only.
 */
export function Flows() {
  const [person, setPerson] = useState<AuthenticatedDetail['person'] | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [signed, setSigned] = useState('');
  return (
    <>
      <section>
        <h2>Log in</h2>
        <EsignIdentify endpoint="/esign" channels={['smartid', 'mobile']} onAuthenticated={(event) => setPerson(event.detail.person)} />
        {person && <p id="welcome">Welcome, {person.name} {person.surname}</p>}
      </section>
      <section>
        <h2>Sign a PDF</h2>
        <input id="pdf" type="file" accept=".pdf" onChange={(event) => setFiles([...(event.target.files ?? [])])} />
        <EsignSign endpoint="/esign" files={files} onSigned={(event) => setSigned(event.detail.file.name)} />
        {signed && <p id="signed">Signed: {signed}</p>}
      </section>
    </>
  );
}
