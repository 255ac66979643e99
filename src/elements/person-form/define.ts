/** Registers <esign-person-form>, with the words of its form in the five languages; safe to import twice. */
import { EsignPersonForm } from './person-form.js';
import { defineElement } from '../../internal/define.js';
import { provideFormWords } from '../../i18n/form-words.js';

provideFormWords();

defineElement('esign-person-form', EsignPersonForm);

export { EsignPersonForm };
