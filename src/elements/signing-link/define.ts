/** Registers <esign-signing-link>; safe to import twice. */
import { EsignSigningLink } from './signing-link.js';
import { defineElement } from '../../internal/define.js';

defineElement('esign-signing-link', EsignSigningLink);

export { EsignSigningLink };
