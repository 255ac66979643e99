/** Registers <esign-hash-sign> and the elements it is made of; safe to import twice. */
import { EsignHashSign } from '../elements/hash-sign/hash-sign.js';
import { defineElement } from '../internal/define.js';
import './control-code.js';
import './person-form.js';
import './status.js';

defineElement('esign-hash-sign', EsignHashSign);

export { EsignHashSign };
