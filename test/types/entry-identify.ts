// A page that imports one element's entry alone gets its tag and its events typed: no cast, and a
// wrong name or field is an error (compiled alone by tsconfig.entry-identify.json, skipLibCheck off).
import 'esign-elements/identify';

const identify = document.querySelector('esign-identify');
void identify?.start();
identify?.addEventListener('esign-authenticated', (event) => console.log(event.detail.person.code, event.detail.certificate));
document.addEventListener('esign-authenticated', (event) => console.log(event.detail.person.surname));
// @ts-expect-error: an authenticated person has no file
identify?.addEventListener('esign-authenticated', (event) => console.log(event.detail.file));
// the session's state machine is the element's own: not API (read the events and the status instead)
// @ts-expect-error: no `flow`
void identify?.flow;
