/** Registers <esign-status>; safe to import twice. */
import { EsignStatus } from './status.js';
import { defineElement } from '../../internal/define.js';

defineElement('esign-status', EsignStatus);

export { EsignStatus };

declare global {
  interface HTMLElementTagNameMap {
    'esign-status': EsignStatus;
  }
}
