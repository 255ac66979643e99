import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/identify/define.js';
import { ENDPOINT } from './helpers.js';

// This file imports only the identify entry: it registers the element and its parts, nothing else.
describe('one entry per element', () => {
  it('esign-elements/identify registers esign-identify and the elements it is made of, and no other', async () => {
    // the form's elements at once; the control code and the status (nothing to show before a
    // session) with the rest of a session's code, once an element's form is on screen
    for (const tag of ['esign-identify', 'esign-person-form']) expect(customElements.get(tag), tag).to.be.a('function');
    for (const tag of ['esign-control-code', 'esign-status']) expect(customElements.get(tag), tag).to.equal(undefined);
    await fixture(html`<esign-identify endpoint=${ENDPOINT}></esign-identify>`);
    await Promise.all(['esign-control-code', 'esign-status'].map((tag) => customElements.whenDefined(tag)));
    for (const tag of ['esign-identify', 'esign-person-form', 'esign-control-code', 'esign-status']) {
      expect(customElements.get(tag), tag).to.be.a('function');
    }
    for (const tag of [
      'esign-sign',
      'esign-hash-sign',
      'esign-document',
      'esign-document-upload',
      'esign-signer-list',
      'esign-validation-report',
      'esign-signing-link',
    ]) {
      expect(customElements.get(tag), tag).to.equal(undefined);
    }
  });

  it('importing the document entry later adds the document elements and keeps the others', async () => {
    await import('../../src/elements/document/define.js');
    for (const tag of ['esign-document', 'esign-signer-list', 'esign-validation-report', 'esign-signing-link', 'esign-identify']) {
      expect(customElements.get(tag), tag).to.be.a('function');
    }
    expect(customElements.get('esign-sign')).to.equal(undefined);
  });
});
