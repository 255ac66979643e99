import { headers } from 'next/headers';
import { visitorFromCookie, type Country } from 'esign-elements/proxy';

/*
 * This app's session is the proxy's visitor cookie (HttpOnly, SameSite=Strict, `__Host-` over
 * https, minted and signed by the proxy, a new one at every login): `result.visitor` in onResult
 * names the browser by its new id, and the server reads the same cookie to know who it is. The people logged in are kept where every route of this one process finds them;
 * a real host keeps them in its database or session store.
 */

/** A person is a country and a code: the same digits in two countries are two people. */
export interface Person {
  country: Country;
  code: string;
  name: string;
  surname: string;
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
  // only an id the proxy minted (signed with its visitorSecret, by default the access token) counts
  const visitor = visitorFromCookie((await headers()).get('cookie'), { secure: SECURE, secret: process.env['ESIGN_ACCESS_TOKEN'] ?? '' });
  return (visitor && people().get(visitor)) || null;
}
