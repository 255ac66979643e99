import { oneEvent } from '@open-wc/testing';
import type { EsignIdentify } from '../../src/elements/identify/identify.js';
import type { EsignPersonForm } from '../../src/elements/person-form/person-form.js';

export const ENDPOINT = '/esign';

// a session that ended well is remembered (its method and country) in the page's localStorage,
// which every test file of a browser shares: each test starts with nothing remembered
const forgetRemembered = () => localStorage.removeItem('esign-elements:remembered');
beforeEach(forgetRemembered);
afterEach(forgetRemembered);

/** The first element matching a selector, looking through open shadow roots. */
export function deepQuery<T extends Element>(root: Element | ShadowRoot | Document, selector: string): T | null {
  const direct = root.querySelector<T>(selector);
  if (direct) return direct;
  for (const el of root.querySelectorAll('*')) {
    if (el.shadowRoot) {
      const found = deepQuery<T>(el.shadowRoot, selector);
      if (found) return found;
    }
  }
  return null;
}

/** The element that has the focus, through shadow roots. */
export function deepActiveElement(): Element | null {
  let active: Element | null = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** Words as written in the strings: the elements draw `Smart-ID` with a non-breaking hyphen (U+2011), read here as typed. */
export function plain(text: string): string {
  return text.replace(/\u2011/g, '-');
}

/** All text a person sees, through shadow roots (brand names as typed, see {@link plain}). */
export function deepText(root: Node): string {
  return plain(drawnText(root));
}

function drawnText(root: Node): string {
  let text = '';
  if (root instanceof Element && root.shadowRoot) text += ` ${drawnText(root.shadowRoot)} `;
  for (const node of root.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
    else if (node instanceof Element && node.localName !== 'style') text += ` ${drawnText(node)} `;
  }
  return text.replace(/\s+/g, ' ');
}

export function personForm(el: EsignIdentify): EsignPersonForm {
  return el.shadowRoot!.querySelector('esign-person-form')!;
}

/** Types into a field of the person form as a person would. */
export async function type(el: EsignIdentify, field: 'code' | 'phone', value: string): Promise<void> {
  await el.updateComplete;
  const form = personForm(el);
  await form.updateComplete;
  const input = form.shadowRoot!.querySelector<HTMLInputElement>(`#${field}`)!;
  input.focus();
  input.value = value;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await form.updateComplete;
}

export function submitButton(el: EsignIdentify): HTMLButtonElement {
  return el.shadowRoot!.querySelector<HTMLButtonElement>('[part="submit"]')!;
}

/**
 * Waits for a condition: what a test means by "once this happened", never a measure of speed. Its
 * limit is for a machine running the other suites beside this one (a PDF drawn after signing took
 * over 8 s there), not for a quiet one.
 */
export async function until(check: () => boolean, what: string, limit = 20_000): Promise<void> {
  // performance.now, not Date.now: a test may move the wall clock
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > limit) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function requestsTo(path: string): number {
  return performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.startsWith(path)).length;
}

export { oneEvent };
