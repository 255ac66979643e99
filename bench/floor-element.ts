import { LitElement, css, html } from 'lit';
import { strings as form } from '../src/i18n/lt-form.js';
import { strings as session } from '../src/i18n/lt-session.js';

/** The words this form shows, and no others: the least a page must load to show it. */
const SHOWN = [
  'identify.channel',
  'channel.smartid',
  'channel.mobile',
  'form.country',
  'country.LT',
  'country.LV',
  'country.EE',
  'form.code',
  'form.code.hint',
  'identify.submit',
] as const;
const every: Record<string, string> = { ...form, ...session };
const strings = Object.fromEntries(SHOWN.map((key) => [key, every[key] ?? key])) as Record<(typeof SHOWN)[number], string>;

/**
 * The floor of the slow-phone measurement: Lit alone, bundled by Vite, one element that shows the
 * login form's Lithuanian words at once (the words are in the file). Nothing of the widget's logic.
 */
class FloorLogin extends LitElement {
  static override styles = css`
    :host { display: block; max-inline-size: 34rem; font: 1rem/1.5 system-ui, sans-serif; }
    fieldset { border: 0; margin: 0 0 1rem; padding: 0; }
    .field { display: grid; gap: 0.25rem; margin-block-end: 1rem; }
    input, select, button { font: inherit; min-block-size: 2.75rem; }
  `;

  override render() {
    return html`<form>
      <fieldset>
        <legend>${strings['identify.channel']}</legend>
        <label><input type="radio" name="channel" checked /> ${strings['channel.smartid']}</label>
        <label><input type="radio" name="channel" /> ${strings['channel.mobile']}</label>
      </fieldset>
      <div class="field">
        <label for="country">${strings['form.country']}</label>
        <select id="country">
          <option>${strings['country.LT']}</option>
          <option>${strings['country.LV']}</option>
          <option>${strings['country.EE']}</option>
        </select>
      </div>
      <div class="field">
        <label for="code">${strings['form.code']}</label>
        <span>${strings['form.code.hint']}</span>
        <input id="code" inputmode="numeric" />
      </div>
      <button type="submit">${strings['identify.submit']}</button>
    </form>`;
  }
}
customElements.define('floor-login', FloorLogin);
