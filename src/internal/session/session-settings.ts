import type { PropertyDeclarations } from 'lit';
import { CHANNELS, type Channel, type Country, type MessageFormat } from '../../protocol/types.js';
import { EsignElement } from '../element/base-element.js';

const listOf = (value: string | null): Channel[] => (value ?? '').split(/[\s,]+/).filter((c): c is Channel => (CHANNELS as readonly string[]).includes(c));

/**
 * What a host sets on a session element (`esign-identify`, `esign-sign`, `esign-hash-sign`): the
 * channels and countries offered, the person prefilled, the phone's message, the session's pace
 * and limits. What the element does with them is `EsignSessionElement`'s.
 */
export class EsignSessionSettings extends EsignElement {
  static override properties: PropertyDeclarations = {
    channels: { converter: { fromAttribute: listOf, toAttribute: (value: Channel[]) => value.join(' ') } },
    channel: { type: String, reflect: true },
    country: { type: String },
    countries: { converter: { fromAttribute: (v: string | null) => (v ?? '').split(/[\s,]+/).filter(Boolean) } },
    message: { type: String },
    messageFormat: { type: String, attribute: 'message-format' },
    pollInterval: { type: Number, attribute: 'poll-interval' },
    timeLimit: { type: Number, attribute: 'time-limit' },
    code: { type: String },
    phone: { type: String },
    hideSuccess: { type: Boolean, attribute: 'hide-success' },
    novalidate: { type: Boolean, reflect: true },
    noResume: { type: Boolean, attribute: 'no-resume' },
    noRemember: { type: Boolean, attribute: 'no-remember' },
    requestTimeout: { type: Number, attribute: 'request-timeout' },
  };

  /** Channels offered, in order: `smartid`, `mobile`. */
  declare channels: Channel[];
  /** The channel chosen now (preselect with the attribute). */
  declare channel: Channel;
  /**
   * The country preselected for Smart-ID. Unset (''), it follows the page's language where the
   * language names one (et: Estonia, lv: Latvia, lt: Lithuania), else Lithuania.
   */
  declare country: Country | '';
  /** Countries offered for Smart-ID. */
  declare countries: Country[];
  /** Text shown on the phone. */
  declare message: string;
  /** GSM-7 or UCS-2 (Mobile-ID); chosen from the text when unset. */
  declare messageFormat: MessageFormat | '';
  /** Wait between status polls, ms. */
  declare pollInterval: number;
  /** Give up after this many ms; 0 uses the channel's default. */
  declare timeLimit: number;
  /** Prefilled personal code. */
  declare code: string;
  /** Prefilled phone number. */
  declare phone: string;
  /** Render nothing in the success state (the host shows its own). */
  declare hideSuccess: boolean;
  /**
   * As on a form: the person's fields are sent as typed and checked by the service alone, whose
   * field errors (40004 phone, 40005 code, 40001) then land on their fields.
   */
  declare novalidate: boolean;
  /**
   * Do not keep a waiting session in the tab's sessionStorage. By default a page reloaded while the
   * person confirms on their phone (a phone reloads a discarded tab) follows the same session on.
   */
  declare noResume: boolean;
  /**
   * Do not remember the method and country of a session that ended well. By default they are kept
   * in the page's localStorage (this site, this device; never the code or the phone) and
   * preselected next time, where the host chose neither and the person has not begun.
   */
  declare noRemember: boolean;
  /**
   * A request's time limit, ms, on a bad network: a start past it ends in a retryable error, a
   * status poll past it (or 10 s, the shorter) is dropped and the next goes at once; a file adds
   * 10 s a megabyte. 0: 30 s.
   */
  declare requestTimeout: number;

  constructor() {
    super();
    this.channels = [...CHANNELS];
    this.channel = 'smartid';
    this.country = '';
    this.countries = ['LT', 'LV', 'EE'];
    this.message = '';
    this.messageFormat = '';
    this.pollInterval = 1000;
    this.timeLimit = 0;
    this.code = '';
    this.phone = '';
    this.hideSuccess = false;
    this.novalidate = false;
    this.noResume = false;
    this.noRemember = false;
    this.requestTimeout = 0;
  }
}
