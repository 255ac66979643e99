import { getServerSession } from 'next-auth/next';
import { authOptions } from '../lib/auth.js';

// the greeting from the server's own session
export async function getServerSideProps({ req, res }) {
  const person = (await getServerSession(req, res, authOptions))?.person ?? null;
  return { props: { person } };
}

export default function Home({ person }) {
  return (
    <main>
      <h1>A site in Next.js with next-auth</h1>
      {person ? (
        <p id="welcome">{`Welcome, ${person.name} ${person.surname}`}</p>
      ) : (
        <>
          <p id="anonymous">Not logged in</p>
          <a id="login" href="/login">Log in</a>
        </>
      )}
    </main>
  );
}
