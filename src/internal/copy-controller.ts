import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Copies text to the clipboard and remembers for a moment which item was copied (for "Copied"). */
export class CopyController implements ReactiveController {
  copied = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  async copy(text: string, id: string): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      return false;
    }
    this.copied = id;
    this.host.requestUpdate();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.copied = '';
      this.host.requestUpdate();
    }, 2500);
    return true;
  }

  hostDisconnected(): void {
    clearTimeout(this.#timer);
  }
}
