'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { EsignIdentify, EsignSign } from 'esign-elements/react';
import type { Country } from 'esign-elements';

/**
 * Rendered on the server and hydrated: the components add their event listeners themselves, so
 * onAuthenticated and onSigned work after hydration. The events are signals for the page only:
 * after a login the page asks the server again, which greets whom onResult logged in.
 */
export function Flows({ signer }: { signer: { country: Country; code: string } | null }) {
  const router = useRouter();
  const [files, setFiles] = useState<File[]>([]);
  const [signed, setSigned] = useState('');
  return (
    <>
      <section>
        <h2>Log in</h2>
        <EsignIdentify endpoint="/esign" channels={['smartid', 'mobile']} onAuthenticated={() => router.refresh()} />
      </section>
      <section>
        <h2>Sign a PDF</h2>
        <input id="pdf" type="file" accept=".pdf" onChange={(event) => setFiles([...(event.target.files ?? [])])} />
        <EsignSign endpoint="/esign" files={files} signer={signer} onSigned={(event) => setSigned(event.detail.file.name)} />
        {signed && <p id="signed">Signed: {signed}</p>}
      </section>
    </>
  );
}
