import type { PropertyDeclarations } from 'lit';
import { camelCased } from '../../protocol/camel.js';
import { mobileLogin, smartIdLogin } from '../../protocol/operations.js';
import type { PhoneLanguage } from '../../protocol/types.js';
import type { Language } from '../../i18n/index.js';
import { EsignSessionElement } from '../../internal/session/session-element.js';
import { EsignPersonForm } from '../person-form/person-form.js';
import type { SessionSpec } from '../../internal/session/session-controller.js';
import type { Dependency } from '../../internal/element/define.js';
import type { AuthenticatedDetail } from './events.js';
import { isString, isText, requireAnswer } from '../../internal/data/answer-check.js';
import { required } from '../../protocol/checks.js';

const PHONE_LANGUAGE: Record<Language, PhoneLanguage> = { lt: 'LIT', en: 'ENG', lv: 'ENG', et: 'EST', ru: 'RUS' };

/**
 * Authentication with Smart-ID or Mobile-ID: channel choice, the person's details, the
 * control code, waiting, and the result.
 *
 * @fires esign-started - The session exists and the control code is known.
 * @fires esign-authenticated - The person is identified.
 * @fires esign-cancelled - The person or the host cancelled.
 * @fires esign-error - The session failed; the detail says why and whether trying again can help.
 * @csspart base - The frame.
 * @csspart submit - The submit button.
 * @csspart retry - The try-again button.
 * @csspart connection - While waiting: that the connection is lost and the element keeps trying, or that it is back.
 * @csspart retry-wait - The minutes left after a rate limit, in place of the try-again button.
 * @csspart field - Each field's wrapper of the person form (forwarded).
 * @csspart input - The person form's inputs and select (forwarded).
 * @csspart error - A field's error message (forwarded).
 * @csspart code - The control code's digits (forwarded).
 * @csspart instruction - What to do on the phone (forwarded).
 * @csspart warning - What to do when the phone shows another code (forwarded).
 * @csspart status - The waiting and result box (forwarded).
 * @csspart cancel - The cancel button (forwarded).
 * @slot success - Shown instead of the element's own success content (the status stays, for screen readers).
 *
 * @tag esign-identify
 */
export class EsignIdentify extends EsignSessionElement<AuthenticatedDetail, 'login'> {
  /** The form at once; the control code and the status show nothing before a session: defined with its code. */
  static dependencies: Record<string, Dependency> = {
    'esign-person-form': EsignPersonForm,
    'esign-control-code': { later: () => import('../control-code/define.js').then((entry) => entry.EsignControlCode) },
    'esign-status': { later: () => import('../status/define.js').then((entry) => entry.EsignStatus) },
  };

  static override properties: PropertyDeclarations = {
    phoneLanguage: { type: String, attribute: 'phone-language' },
    peps: { type: Boolean },
    sanctions: { type: Boolean },
    interaction: { type: String },
    authorize: { type: String },
    siteName: { type: String, attribute: 'site-name' },
  };

  /** Language of the phone screen (LIT, ENG, RUS, EST); follows the UI language when unset. */
  declare phoneLanguage: PhoneLanguage | '';
  /** Ask the service for a PEP check. */
  declare peps: boolean;
  /** Ask the service for a sanctions check. */
  declare sanctions: boolean;
  /**
   * An OpenID Connect login on esign-proxy's own login page: the interaction's path, which the
   * verified login continues to the site. The page sets it, and `endpoint` to the same path: the
   * login's requests then go through the interaction, and its last poll continues it.
   */
  declare interaction: string;
  /**
   * An OpenID Connect login on the site's own page: the authorization request the site's client
   * made (`https://site.example/esign/oidc/auth?client_id=…`), on this origin. After the login the
   * browser goes on to the site's redirect URI with the code, as from the provider's own page.
   */
  declare authorize: string;
  /**
   * The site the person logs in to, named beside the method while they confirm
   * (`Smart-ID · 3900••••607 · Baltijas Banka`); esign-proxy's login page sets it from `client_name`.
   */
  declare siteName: string;

  constructor() {
    super();
    this.phoneLanguage = '';
    this.peps = false;
    this.sanctions = false;
    this.interaction = '';
    this.authorize = '';
    this.siteName = '';
  }

  protected readonly session: SessionSpec<'login', AuthenticatedDetail> = {
    kind: 'login',
    subject: () => this.siteName.trim(),
    start: async (client, channel, person, signal) => {
      const screening = { peps: this.peps, sanctions: this.sanctions };
      if (channel === 'smartid') {
        return client.call(
          smartIdLogin,
          { code: person.code, country: person.country, ...screening, ...(this.message ? { message: this.message } : {}) },
          {},
          { signal },
        );
      }
      return client.call(
        mobileLogin,
        {
          phone: required(person.phone),
          code: person.code,
          language: this.phoneLanguage || PHONE_LANGUAGE[this.language],
          ...screening,
          ...(await this.mobileMessage()),
        },
        {},
        { signal },
      );
    },
    finish: async (raw, { channel, token }) => {
      requireAnswer(isText(raw.code) && isText(raw.country) && isString(raw.name) && isString(raw.surname), 'person');
      const detail: AuthenticatedDetail = {
        person: { name: raw.name, surname: raw.surname, code: raw.code, country: raw.country },
        certificate: camelCased(raw.certificate),
        token: raw.token,
        channel,
        pepsData: camelCased(raw.peps_data ?? []),
        sanctionsData: camelCased(raw.sanctions_data ?? []),
        result: camelCased(raw),
        raw,
      };
      // a login that continues to a site (OpenID Connect) is a success once it has been continued
      if (this.interaction || this.authorize) {
        const { continueLogin } = await import('./continue-login.js');
        const through = this.interaction !== '' && this.endpoint.replace(/\/+$/, '') === this.interaction;
        await continueLogin({ interaction: this.interaction, authorize: this.authorize, through }, token);
      }
      return detail;
    },
    announce: (detail) => this.emit('esign-authenticated', detail),
  };

  protected successMessage(): string {
    return this.t('identify.success', { name: `${this.result?.name ?? ''} ${this.result?.surname ?? ''}`.trim() });
  }

  protected cancelledMessage(): string {
    return this.t('identify.cancelled');
  }

  /** On esign-proxy's login page, which has its own way back to the site, the button ends the request only: it says so. */
  protected override cancelLabel(): string {
    return this.interaction ? this.t('identify.cancel-request') : super.cancelLabel();
  }

  protected submitLabel(): string {
    return this.t('identify.submit');
  }
}
