import { getServerSession } from 'next-auth/next';
import { authOptions } from '../../lib/auth.js';
import { rawBody, verified } from '../../lib/deliveries.js';

export const config = { api: { bodyParser: false } };

// the signing gate's question, signed by esign-proxy and carrying the browser's cookies: who is signed in here
export default async function signer(req, res) {
  if (req.method !== 'POST') return res.status(405).end();
  if (!verified(req, await rawBody(req))) return res.status(400).send('not a question of ours');
  const person = (await getServerSession(req, res, authOptions))?.person;
  res.status(200).json(person ? { country: person.country, code: person.code } : null);
}
