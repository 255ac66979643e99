/** Registers <esign-signer-list>; safe to import twice. */
import { EsignSignerList } from './signer-list.js';
import { defineElement } from '../../internal/define.js';

defineElement('esign-signer-list', EsignSignerList);

export { EsignSignerList };
