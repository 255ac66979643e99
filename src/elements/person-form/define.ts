/** Registers <esign-person-form> (its form's words in the five languages come with it); safe to import twice. */
import { EsignPersonForm } from './person-form.js';
import { defineElement } from '../../internal/define.js';
defineElement('esign-person-form', EsignPersonForm);

export { EsignPersonForm };

declare global {
  interface HTMLElementTagNameMap {
    'esign-person-form': EsignPersonForm;
  }
}
