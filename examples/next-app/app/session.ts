import { headers } from 'next/headers';
import { visitorFromCookie } from 'esign-elements/proxy';

/*
 * This app's session is the proxy's visitor cookie (HttpOnly, SameSite=Strict, `__Host-` over
 * https): `result.visitor` in onResult names the browser, and the server reads the same cookie to
 * know who it is. The people logged in are kept where every route of this one process finds them;
 * a real host keeps them in its database or session store.
 */

export interface Person {
  code: string;
  name: string;
  surname: string;
  country: string;
}

/** Served over https (the default): the proxy sets its `__Host-` cookie. ESIGN_PUBLIC_SCHEME=http for plain http. */
export const SECURE = process.env['ESIGN_PUBLIC_SCHEME'] !== 'http';

const kept = globalThis as typeof globalThis & { esignPeople?: Map<string, Person> };

/** The people logged in, by visitor. */
export function people(): Map<string, Person> {
  return (kept.esignPeople ??= new Map());
}

/** Who this request's browser logged in as, on the server's word. */
export async function signedIn(): Promise<Person | null> {
  const visitor = visitorFromCookie((await headers()).get('cookie'), { secure: SECURE });
  return (visitor && people().get(visitor)) || null;
}
