import { EsignError } from '../../client/errors.js';

/*
 * An OpenID Connect login continued after the person logged in: the interaction learnt from the
 * site's authorization request (the address of its page), the verified login handed to it by its
 * session token, and the browser sent where the provider says (the client's redirect URI, with
 * the code). The proxy checks that this browser made the login; the page only asks.
 */

const INTERACTION = /\/interaction\/[A-Za-z0-9_-]+$/;
/** A request never answered ends as a retryable network failure, not a person left waiting. */
const ANSWER_WITHIN_MS = 15_000;

/** The interaction an authorization request starts: the provider answers it with its login page, whose own address it names. */
async function interactionOf(authorize: string): Promise<string> {
  const answer = await fetch(authorize, { credentials: 'same-origin', headers: { accept: 'text/html' }, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  const path = new URL(answer.headers.get('content-location') ?? answer.url, answer.url).pathname;
  if (!answer.ok || !INTERACTION.test(path)) throw new EsignError('site-refused', `The authorization request was not accepted (HTTP ${answer.status})`);
  return path;
}

/**
 * Continues the login at the provider; resolves once the browser is on its way. `through`: the
 * login's requests went through the interaction (the provider's own page), whose poll that found
 * it verified continued it there; the browser goes on to the provider's next step at once.
 */
export async function continueLogin(target: { interaction: string; authorize: string; through: boolean }, token: string): Promise<void> {
  if (target.through) {
    window.location.assign(target.interaction.replace(INTERACTION, (path) => path.replace('/interaction/', '/auth/')));
    return;
  }
  let interaction: string;
  try {
    interaction = target.interaction || (await interactionOf(target.authorize));
  } catch (error) {
    if (error instanceof EsignError) throw error;
    throw new EsignError('network', 'The authorization request could not be sent', { cause: error });
  }
  let answer: Response;
  try {
    answer = await fetch(`${interaction}/login`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
      signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
    });
  } catch (error) {
    throw new EsignError('network', 'The login could not be handed to the site', { cause: error });
  }
  const body: unknown = await answer.json().catch(() => null);
  const location = typeof body === 'object' && body !== null && 'location' in body && typeof body.location === 'string' ? body.location : '';
  if (!answer.ok || !location) {
    throw new EsignError(
      answer.status === 410 || answer.status === 404 ? 'session-not-found' : 'site-refused',
      `The login could not be handed to the site (HTTP ${answer.status})`,
    );
  }
  window.location.assign(location);
}
