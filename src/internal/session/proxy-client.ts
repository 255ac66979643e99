import { ProxyCaller, serviceLocale } from '../../client/caller.js';
import type { Language } from '../../i18n/index.js';

/**
 * The caller an element that talks to the service uses: the one it has while its endpoint and
 * language stay, else a new one. Elements that only show things never load it.
 */
export function proxyClient(current: ProxyCaller | undefined, endpoint: string, language: Language, timeoutMs = 0): ProxyCaller {
  if (current && current.endpoint === endpoint.replace(/\/+$/, '') && current.locale === serviceLocale(language) && current.timeoutMs === (timeoutMs || 30_000))
    return current;
  return new ProxyCaller({ endpoint, lang: language, timeoutMs });
}
