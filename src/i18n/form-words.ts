import { provideStrings } from './index.js';
import { strings as en } from './en-form.js';
import { strings as et } from './et-form.js';
import { strings as lt } from './lt-form.js';
import { strings as lv } from './lv-form.js';
import { strings as ru } from './ru-form.js';

/*
 * The words of the session elements' forms, in the five languages, inside the file that draws the
 * form: whatever the page's language, the login form is drawn as soon as the file has run, with no
 * language file to wait for. The rest of a language's words
 * (its session part) comes after the form is on screen. Called by the person form's class as it is
 * defined: the only way these words arrive.
 */
export function provideFormWords(): void {
  provideStrings('en', 'form', en);
  provideStrings('et', 'form', et);
  provideStrings('lt', 'form', lt);
  provideStrings('lv', 'form', lv);
  provideStrings('ru', 'form', ru);
}
