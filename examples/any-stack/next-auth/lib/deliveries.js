// What esign-proxy POSTs (a delivery, the signer question) verified as Standard Webhooks
// deliveries by the standardwebhooks library; each webhook-id taken once, as a file made only if
// absent in SITE_DIR, which a restart and every process see.
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';

// made when the server first needs them (next build loads this file without the site's settings)
let webhook;
const webhookOf = () => (webhook ??= new Webhook(process.env.ESIGN_WEBHOOK_SECRET.replace(/^whsec_/, '')));
const takenDir = () => {
  const dir = join(process.env.SITE_DIR ?? 'site-data', 'deliveries');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
};

/** The raw body of a request whose parser is off. */
export async function rawBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The delivery's JSON when it is signed with the site's secret and recent; null otherwise. */
export function verified(req, body) {
  try {
    return webhookOf().verify(body, req.headers);
  } catch {
    return null;
  }
}

/** Whether this webhook-id is new: a repeat (esign-proxy's retry, a copy) changes nothing. */
export function firstTime(id) {
  try {
    closeSync(openSync(join(takenDir(), createHash('sha256').update(id).digest('hex')), 'wx', 0o600));
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}
