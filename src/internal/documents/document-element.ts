import { html, nothing, type PropertyDeclarations } from 'lit';
import { EsignError, type EsignErrorDetail } from '../../client/errors.js';
import type { ProxyCaller } from '../../client/caller.js';
import { EsignElement } from '../element/base-element.js';
import { STRING_PARTS, type StringPart } from '../../i18n/index.js';
import { proxyClient } from '../session/proxy-client.js';
import { controls } from '../element/controls.styles.js';
import { documentStyles } from './documents.styles.js';
import { theme } from '../element/theme.js';

/**
 * What the document elements share: the document id, one action at a time with its
 * progress, failures said in the person's language and sent as `esign-error`, and no
 * request left running after the element leaves the page.
 */
export class EsignDocumentElement extends EsignElement {
  static override styles = [theme, controls, documentStyles];
  static override stringParts: readonly StringPart[] = STRING_PARTS;

  static override properties: PropertyDeclarations = {
    documentId: { type: String, attribute: 'document-id' },
    busy: { state: true },
    failure: { state: true },
  };

  /** The stored document's uuid. */
  declare documentId: string;
  /** The action running now, or empty. */
  declare busy: string;
  /** The last failure, shown until the next action. */
  declare failure: EsignErrorDetail | null;

  #controller: AbortController | undefined;

  #client: ProxyCaller | undefined;

  /** What sends operations to the proxy at the current endpoint, in the current language. */
  get client(): ProxyCaller {
    return (this.#client = proxyClient(this.#client, this.endpoint, this.language));
  }

  constructor() {
    super();
    this.documentId = '';
    this.busy = '';
    this.failure = null;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#controller?.abort();
  }

  /** Runs one action; a failure becomes `failure` and an `esign-error` event, and is rethrown. */
  protected async act<T>(name: string, action: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.#controller?.abort();
    const controller = new AbortController();
    this.#controller = controller;
    this.busy = name;
    this.failure = null;
    try {
      return await action(controller.signal);
    } catch (error) {
      const esignError = error instanceof EsignError ? error : new EsignError('unknown', String(error), { cause: error });
      if (esignError.code !== 'cancelled') this.fail(esignError, name);
      throw esignError;
    } finally {
      if (this.#controller === controller) {
        this.busy = '';
        this.#controller = undefined;
      }
    }
  }

  /**
   * A value the host sets (never the person) is missing or wrong: said as a setup problem, as the
   * element's failure and an `esign-error` event, before anything is sent.
   */
  protected setupProblem(field: string, action: string): never {
    const error = new EsignError('misconfigured', `${field} is not a valid setting`, { field });
    this.fail(error, action);
    throw error;
  }

  /** What failed (`action`: the name given to `act`) is said in the element and sent as `esign-error`. */
  protected fail(error: EsignError, action: string): void {
    this.#failedAction = action;
    this.failure = this.errorDetail(error);
    this.emit('esign-error', this.failure);
  }

  /** The action that failed last, as `act` named it. */
  #failedAction = '';

  /** A failure's heading: what could not be done ("Could not upload the document"), by the action's name. */
  protected failedHeading(_action: string): string {
    return '';
  }

  /** The element needs a document id before it can do anything. */
  protected requireDocument(): void {
    if (!this.documentId) throw new EsignError('misconfigured', 'No document-id is set', { field: 'documentId' });
  }

  /** Every element's failure, as the session elements' reads: what could not be done, then why, the actions after it. */
  protected renderFailure() {
    if (!this.failure) return nothing;
    const heading = this.failedHeading(this.#failedAction);
    return html`<p class="message error" role="alert" part="error">
      <span class="text">${heading ? html`<strong class="title">${heading}</strong> ` : nothing}<span class="detail">${this.failure.message}</span></span>
    </p>`;
  }

  protected async focusLater(selector: string): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLElement>(selector)?.focus();
  }
}
