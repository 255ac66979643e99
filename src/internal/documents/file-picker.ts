import { html, nothing } from 'lit';
import type { SignFile } from './sign-files.js';
import { fileName } from './file-name.js';

export interface FilePickerOptions {
  label: string;
  files: SignFile[];
  /** Files came from the host: listed, not removable, no picker. */
  fixed: boolean;
  multiple: boolean;
  accept: string;
  hint: string;
  /** What the button says: to choose a first file, or (one file chosen) another one instead. */
  pickLabel: string;
  pickOther: string;
  /** "or drop it here": shown only where a pointer can drag (not on touch screens). */
  dropLabel: string;
  error: string;
  dragging: boolean;
  removeLabel: (name: string) => string;
  size: (bytes: number) => string;
  onFiles: (files: FileList) => void;
  onRemove: (index: number) => void;
  onDragging: (dragging: boolean) => void;
  /** While the files are on their way: shown as they are, nothing changes them (the focus stays where it is). */
  busy?: boolean;
}

/**
 * A list of chosen files and a drop zone whose real button opens the file picker. One chosen file
 * of a single-file picker is shown in the list and the button offers another in its place.
 */
export function filePicker(o: FilePickerOptions) {
  return html`<div class="documents" role="group" aria-labelledby="documents-label">
    <span class="documents-label" id="documents-label">${o.label}</span>
    ${
      o.files.length
        ? html`<ul class="file-list">
          ${o.files.map(
            (file, i) => html`<li>
              ${fileName(file.name)}
              <span class="file-size">${o.size(file.size)}</span>
              ${
                o.fixed
                  ? nothing
                  : html`<button type="button" class="secondary" aria-label=${o.removeLabel(file.name)} aria-disabled=${o.busy ? 'true' : 'false'} @click=${() => o.busy || o.onRemove(i)}>✕</button>`
              }
            </li>`,
          )}
        </ul>`
        : nothing
    }
    ${
      o.fixed
        ? nothing
        : html`<div
          class="drop ${o.dragging ? 'over' : ''} ${o.error ? 'invalid' : ''}"
          @dragover=${(e: DragEvent) => {
            e.preventDefault();
            o.onDragging(true);
          }}
          @dragleave=${() => o.onDragging(false)}
          @drop=${(e: DragEvent) => {
            e.preventDefault();
            o.onDragging(false);
            if (e.dataTransfer?.files.length && !o.busy) o.onFiles(e.dataTransfer.files);
          }}
        >
          <button
            type="button"
            class="secondary"
            part="pick"
            aria-describedby="file-hint${o.error ? ' file-error' : ''}"
            aria-disabled=${o.busy ? 'true' : 'false'}
            @click=${(e: Event) => !o.busy && (e.currentTarget instanceof HTMLElement ? e.currentTarget.parentElement?.querySelector<HTMLInputElement>('input[type=file]') : null)?.click()}
          >
            ${!o.multiple && o.files.length ? o.pickOther : o.pickLabel}
          </button>
          <span class="hint" id="file-hint"><span class="drop-words">${o.dropLabel} · </span>${o.hint}</span>
          <input
            type="file"
            hidden
            accept=${o.accept}
            ?multiple=${o.multiple}
            @change=${(e: Event) => {
              const input = e.target;
              if (!(input instanceof HTMLInputElement)) return;
              if (input.files?.length) o.onFiles(input.files);
              input.value = '';
            }}
          />
        </div>`
    }
    ${o.error ? html`<p class="field-error" id="file-error" role="alert">${o.error}</p>` : nothing}
  </div>`;
}

/** File sizes in the person's language: bytes, kB or MB; a number and its unit never on two lines. */
export function formatSize(bytes: number, language: string): string {
  const [value, unit] = bytes >= 1024 * 1024 ? [bytes / (1024 * 1024), 'megabyte'] : bytes >= 1024 ? [bytes / 1024, 'kilobyte'] : [bytes, 'byte'];
  // bytes in words, so the language's plural forms apply ("965 bytes", "1 baitas", "5 байт")
  return new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: unit === 'byte' ? 'long' : 'short', maximumFractionDigits: 1 })
    .format(value)
    .replace(/ /g, '\u00a0');
}
