import { html, nothing, type TemplateResult } from 'lit';
import type { StringKey } from '../../i18n/index.js';
import type { Channel } from '../../protocol/types.js';
import type { EndChoices } from './session-controller.js';

type Translate = (key: StringKey, params?: Record<string, string | number>) => string;

/** What the person can do at an end, as the element handles it. */
export interface EndActions {
  /** Back to the form on the other channel. */
  switchTo(channel: Channel): void;
  /** Back to the form, the focus on what may help: the country, the file, else the first field. */
  retry(fix: EndFix): void;
}

/** What the person may change to get on: the country (no account there), the file (the service could not use it), or nothing in particular. */
export type EndFix = 'country' | 'file' | null;

const FIX_LABEL = { country: 'action.change-country', file: 'sign.pick-other' } as const;

/**
 * What can help after a failure or a cancel: the other channel, trying again, changing the
 * details or the country; while a rate limit lasts, the time left instead. Nothing (not even an
 * empty row) where nothing can help.
 */
export function renderEndActions(
  t: Translate,
  { other, retryable, wait, deadEnd, elsewhere }: EndChoices,
  fix: EndFix,
  actions: EndActions,
): TemplateResult | typeof nothing {
  if (deadEnd && !other && !wait) return nothing;
  // changing the country or the file comes first where it may help, then the other method
  const countryFirst = fix !== null && !wait && !deadEnd;
  const otherButton = other
    ? html`<button class=${countryFirst ? 'secondary' : 'primary'} part="other-channel" type="button" @click=${() => actions.switchTo(other)}>
        ${t('action.use-channel', { channel: t(`channel.${other}`) })}
      </button>`
    : nothing;
  return html`<div class="actions">
    ${countryFirst ? nothing : otherButton}
    ${
      wait
        ? html`<p class="wait" part="retry-wait" role="status" tabindex="-1">${wait}</p>`
        : deadEnd
          ? nothing
          : html`<button class=${(other && !countryFirst) || elsewhere ? 'secondary' : 'primary'} part="retry" type="button" @click=${() => actions.retry(fix)}>
            ${t(fix ? FIX_LABEL[fix] : retryable ? 'action.retry' : 'action.edit')}
          </button>`
    }
    ${countryFirst ? otherButton : nothing}
  </div>`;
}
