// A page that imports 'esign-elements/define' alone gets every tag and event typed (compiled alone
// by tsconfig.entry-define.json, skipLibCheck off: the shipped declarations of every element hold).
import 'esign-elements/define';

const sign = document.querySelector('esign-sign');
sign?.addEventListener('esign-signed', (event) => console.log(event.detail.file.name, event.detail.signatureId));
const preview = document.createElement('esign-document-preview');
preview.addEventListener('esign-preview-loaded', (event) => console.log(event.detail));
const report = document.querySelector('esign-validation-report');
report?.addEventListener('esign-validated', (event) => console.log(event.detail));
// @ts-expect-error: no such element
document.querySelector('esign-nothing')?.start();
