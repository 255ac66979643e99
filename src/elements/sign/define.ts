/** Registers <esign-sign> and the elements it is made of; safe to import twice. */
import { EsignSign } from './sign.js';
import { defineElement } from '../../internal/define.js';
import '../control-code/define.js';
import '../document-preview/define.js';
import '../person-form/define.js';
import '../status/define.js';

defineElement('esign-sign', EsignSign);

export { EsignSign };
