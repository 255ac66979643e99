import { Flows } from './flows';
import { signedIn } from './session';

export const dynamic = 'force-dynamic';

/** Greets from the server, on the word of onResult, never from the browser's event. */
export default async function Page() {
  const person = await signedIn();
  return (
    <main>
      <h1>Next.js App Router</h1>
      {person ? (
        <p id="welcome">
          Welcome, {person.name} {person.surname}
        </p>
      ) : (
        <p id="anonymous">Not logged in</p>
      )}
      <Flows signer={person ? { country: person.country, code: person.code } : null} />
    </main>
  );
}
