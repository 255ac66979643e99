import { html, nothing, type TemplateResult } from 'lit';
import type { StringKey } from '../../i18n/index.js';
import type { Channel } from '../../protocol/types.js';

type Translate = (key: StringKey, params?: Record<string, string | number>) => string;

/**
 * The choice of channel, as radio buttons in a fieldset; a single channel offered is a plain line
 * ("Log in with Smart-ID"), never drawn like a tile that could be pressed.
 */
export function renderChannelChoice(
  t: Translate,
  legend: 'identify.channel' | 'sign.channel',
  offered: readonly Channel[],
  chosen: Channel,
  choose: (channel: Channel) => void,
): TemplateResult | typeof nothing {
  const [only] = offered;
  if (!only) return nothing;
  if (offered.length === 1) {
    const line: StringKey = legend === 'identify.channel' ? 'identify.channel-only' : 'sign.channel-only';
    return html`<p class="channel-only">${t(line, { channel: t(`channel.${only}`) })}</p>`;
  }
  return html`<fieldset>
    <legend>${t(legend)}</legend>
    <div class="channels">
      ${offered.map(
        (channel) => html`<label class="channel">
          <input type="radio" name="channel" value=${channel} ?checked=${channel === chosen} @change=${() => choose(channel)} />
          ${t(`channel.${channel}`)}
        </label>`,
      )}
    </div>
  </fieldset>`;
}

/** The radios' live state follows a channel set after the person chose (the attribute alone renders on the server). */
export function checkChosenChannel(root: HTMLElement | DocumentFragment, chosen: Channel): void {
  for (const radio of root.querySelectorAll<HTMLInputElement>('input[name="channel"]')) radio.checked = radio.value === chosen;
}
