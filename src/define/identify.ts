/** Registers <esign-identify> and the elements it is made of; safe to import twice. */
import { EsignIdentify } from '../elements/identify/identify.js';
import { defineElement } from '../internal/define.js';
import './control-code.js';
import './person-form.js';
import './status.js';

defineElement('esign-identify', EsignIdentify);

export { EsignIdentify };
