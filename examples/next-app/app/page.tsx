import { Flows } from './flows';

export default function Page() {
  return (
    <main>
      <h1>Next.js App Router</h1>
      <Flows />
    </main>
  );
}
