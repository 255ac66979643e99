import { firstTime, rawBody, verified } from '../../lib/deliveries.js';

export const config = { api: { bodyParser: false } };

// a fact (a signed file, a document's state), taken once; no delivery logs anyone in
export default async function webhook(req, res) {
  if (req.method !== 'POST') return res.status(405).end();
  const delivery = verified(req, await rawBody(req));
  if (!delivery) return res.status(400).send('not a delivery of ours');
  if (firstTime(req.headers['webhook-id'])) console.info(`took a delivery: ${delivery.type}`);
  res.status(204).end();
}
