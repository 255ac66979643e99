import { html, nothing } from 'lit';
import { valueOf } from '../element/event-value.js';

export { EMAIL, isHttpUrl } from '../validation/web.js';

export interface TextFieldOptions {
  id: string;
  label: string;
  value: string;
  error?: string | undefined;
  hint?: string;
  type?: 'text' | 'email' | 'url' | 'number' | 'tel';
  autocomplete?: string;
  required?: boolean;
  disabled?: boolean;
  min?: number;
  onInput: (value: string) => void;
}

/** A labelled input with its hint and its error, wired for screen readers. */
export function textField(o: TextFieldOptions) {
  const describedBy = [o.hint ? `${o.id}-hint` : '', o.error ? `${o.id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field" part="field">
    <span class="field-head"><label for=${o.id}>${o.label}</label>${o.hint ? html`<span class="hint" id="${o.id}-hint">${o.hint}</span>` : nothing}</span>
    <input
      id=${o.id}
      part="input"
      type=${o.type ?? 'text'}
      autocomplete=${o.autocomplete ?? 'off'}
      min=${o.min ?? nothing}
      .value=${o.value}
      ?required=${o.required ?? false}
      ?disabled=${o.disabled ?? false}
      aria-invalid=${o.error ? 'true' : 'false'}
      aria-describedby=${describedBy || nothing}
      @input=${(e: Event) => o.onInput(valueOf(e))}
    />
    ${o.error ? html`<span class="field-error" id="${o.id}-error" part="error">${o.error}</span>` : nothing}
  </div>`;
}
