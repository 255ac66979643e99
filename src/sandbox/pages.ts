import type { DocumentStore } from './documents.js';

function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem"><h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * The pages behind invitation and temporary links. They say what the link is for; signing
 * on them arrives with the document elements.
 */
export function linkPage(store: DocumentStore, kind: 'sign' | 'link', token: string, now: number): { status: number; html: string } {
  if (kind === 'sign') {
    const found = store.findByInvitation(token);
    if (!found) return { status: 404, html: page('Invitation not found', '<p>This invitation does not exist or its document was removed.</p>') };
    return {
      status: 200,
      html: page(
        'Sandbox signing invitation',
        `<p>${escapeHtml(`${found.signer.name} ${found.signer.surname}`)} is invited to sign <strong>${escapeHtml(found.doc.filename)}</strong>.</p><p>State: ${escapeHtml(found.signer.signStatus)}.</p>`,
      ),
    };
  }
  const found = store.findByLink(token);
  if (!found) return { status: 404, html: page('Link not found', '<p>This signing link does not exist or its document was removed.</p>') };
  if (now >= found.link.validUntil) return { status: 410, html: page('Link expired', '<p>This temporary signing link has expired.</p>') };
  return {
    status: 200,
    html: page('Sandbox temporary signing link', `<p>Signing link for <strong>${escapeHtml(found.doc.filename)}</strong>, valid until ${new Date(found.link.validUntil).toISOString()}.</p>`),
  };
}
