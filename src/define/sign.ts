/** Registers <esign-sign> and the elements it is made of; safe to import twice. */
import { EsignSign } from '../elements/sign/sign.js';
import { defineElement } from '../internal/define.js';
import './control-code.js';
import './document-preview.js';
import './person-form.js';
import './status.js';

defineElement('esign-sign', EsignSign);

export { EsignSign };
