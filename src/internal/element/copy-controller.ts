import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Copies text to the clipboard and remembers for a moment which item was copied, or that
 * copying failed (no clipboard permission, say), so the element can say which.
 */
export class CopyController implements ReactiveController {
  #last: { id: string; ok: boolean } | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  async copy(text: string, id: string): Promise<boolean> {
    let ok = true;
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      ok = false;
    }
    this.#last = { id, ok };
    this.host.requestUpdate();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#last = null;
      this.host.requestUpdate();
    }, 4000);
    return ok;
  }

  /** What to say beside item `id`: the copied words, the failed words, or nothing. */
  status(id: string, copied: string, failed: string): string {
    if (this.#last?.id !== id) return '';
    return this.#last.ok ? copied : failed;
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }
}
