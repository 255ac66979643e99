import { expect, fixture, html } from '@open-wc/testing';
import '../../src/elements/identify/define.js';
import '../../src/elements/document-upload/define.js';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { EsignDocumentUpload } from '../../src/elements/document-upload/document-upload.js';
import { stringsLoaded } from '../../src/i18n/index.js';
import { deepText, ENDPOINT, until } from './helpers.js';

// This page has loaded no Estonian words before these tests (every test file runs in a page of its own).
const fetched = (part: string) => performance.getEntriesByType('resource').filter((entry) => entry.name.includes(`/src/i18n/et-${part}.`)).length;

describe('the strings a page loads', () => {
  it('draws a login with the form words it came with, then loads the session words alone, and the document words with the first document element', async () => {
    expect(fetched('session')).to.equal(0);
    const login = await fixture<EsignIdentify>(html`<esign-identify endpoint=${ENDPOINT} lang="et"></esign-identify>`);
    // the form at rest in Estonian at once, before any Estonian file was asked for: its words came with the element's modules
    expect(stringsLoaded('et', ['session'])).to.equal(false);
    const { strings: etForm } = await import('../../src/i18n/et-form.js');
    expect(deepText(login)).to.contain(etForm['identify.submit']);
    expect(deepText(login)).to.contain(etForm['form.code']);
    // the rest of the Estonian words follow once the form is drawn, asked for once by the element and its person form
    await until(() => stringsLoaded('et', ['session']), 'the session words');
    const { strings: etSession } = await import('../../src/i18n/et-session.js');
    expect(etSession['identify.failed']).to.be.a('string');
    // (a browser may write a fetch's timing entry a moment after the module arrived)
    await until(() => fetched('session') > 0, "the session words' request in the timeline");
    expect(fetched('session')).to.equal(1);
    expect(fetched('documents')).to.equal(0);

    const upload = await fixture<EsignDocumentUpload>(html`<esign-document-upload endpoint=${ENDPOINT} lang="et"></esign-document-upload>`);
    const { strings: etDocuments } = await import('../../src/i18n/et-documents.js');
    // rendered in Estonian at once: the element waited for its words, no English first
    expect(deepText(upload)).to.contain(etDocuments['upload.submit']);
    await until(() => fetched('documents') > 0, "the document words' request in the timeline");
    expect(fetched('documents')).to.equal(1);
    expect(fetched('session')).to.equal(1, 'the session words are not asked for again');
    await expect(upload).to.be.accessible();
  });
});
