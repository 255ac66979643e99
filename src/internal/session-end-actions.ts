import { html, nothing, type TemplateResult } from 'lit';
import type { StringKey } from '../i18n/index.js';
import type { Channel } from '../protocol/types.js';
import type { EndChoices } from './session-controller.js';

type Translate = (key: StringKey, params?: Record<string, string | number>) => string;

/** What the person can do at an end, as the element handles it. */
export interface EndActions {
  /** Back to the form on the other channel. */
  switchTo(channel: Channel): void;
  /** Back to the form, the focus on the country when changing it may help. */
  retry(country: boolean): void;
}

/**
 * What can help after a failure or a cancel: the other channel, trying again, changing the
 * details or the country; while a rate limit lasts, the time left instead. Nothing (not even an
 * empty row) where nothing can help.
 */
export function renderEndActions(t: Translate, { other, retryable, wait, deadEnd, elsewhere }: EndChoices, country: boolean, actions: EndActions): TemplateResult | typeof nothing {
  if (deadEnd && !other && !wait) return nothing;
  // changing the country comes first where it may help (the person may have chosen the wrong one), then the other method
  const countryFirst = country && !wait && !deadEnd;
  const otherButton = other
    ? html`<button class=${countryFirst ? 'secondary' : 'primary'} part="other-channel" type="button" @click=${() => actions.switchTo(other)}>
        ${t('action.use-channel', { channel: t(`channel.${other}`) })}
      </button>`
    : nothing;
  return html`<div class="actions">
    ${countryFirst ? nothing : otherButton}
    ${wait
      ? html`<p class="wait" part="retry-wait" role="status" tabindex="-1">${wait}</p>`
      : deadEnd
        ? nothing
        : html`<button class=${(other && !countryFirst) || elsewhere ? 'secondary' : 'primary'} part="retry" type="button" @click=${() => actions.retry(country)}>
            ${t(country ? 'action.change-country' : retryable ? 'action.retry' : 'action.edit')}
          </button>`}
    ${countryFirst ? otherButton : nothing}
  </div>`;
}
