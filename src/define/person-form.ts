/** Registers <esign-person-form>; safe to import twice. */
import { EsignPersonForm } from '../elements/person-form/person-form.js';
import { defineElement } from '../internal/define.js';

defineElement('esign-person-form', EsignPersonForm);

export { EsignPersonForm };
