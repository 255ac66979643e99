/**
 * Defines each element of a page when it first appears there: its code is asked for the moment
 * its tag is seen in the given root, now or later. A load that fails (the network, say) is asked
 * for again when the tag next appears, or when the browser is back online. A root is watched as long as some element is not defined
 * yet; a host's own shadow roots are not seen, so a host that puts elements there
 * passes each root to `discover` itself.
 */
export type ElementLoaders = Readonly<Record<string, () => Promise<unknown>>>;

export interface Autoloader {
  /** Loads what `root` holds now and, while loading is left, what is added to it later. */
  discover(root: ParentNode & Node): void;
}

export function autoloader(loaders: ElementLoaders): Autoloader {
  const asked = new Set<string>();
  const observers = new Set<MutationObserver>();
  const roots = new Set<ParentNode & Node>();
  let retryOnline = false;
  const waiting = () => Object.keys(loaders).filter((tag) => !asked.has(tag) && !customElements.get(tag));
  const allDefined = () => Object.keys(loaders).every((tag) => customElements.get(tag));

  const look = (node: Node): void => {
    if (!(node instanceof Element || node instanceof DocumentFragment || node instanceof Document)) return;
    const tags = waiting();
    if (!tags.length) return;
    const selector = tags.join(',');
    const found = new Set<string>();
    if (node instanceof Element && node.matches(selector)) found.add(node.localName);
    for (const element of node.querySelectorAll(selector)) found.add(element.localName);
    for (const tag of found) {
      const load = loaders[tag];
      if (!load) continue;
      asked.add(tag);
      load().catch((error: unknown) => {
        asked.delete(tag);
        console.error(`esign-elements: <${tag}> could not be loaded; it is asked for again when it next appears or the connection is back`, error);
        if (!retryOnline && typeof window !== 'undefined') {
          retryOnline = true;
          window.addEventListener(
            'online',
            () => {
              retryOnline = false;
              for (const root of roots) look(root);
            },
            { once: true },
          );
        }
      });
    }
  };

  return {
    discover(root) {
      if (typeof MutationObserver === 'undefined') return;
      roots.add(root);
      look(root);
      if (allDefined()) return;
      const observer = new MutationObserver((records) => {
        if (allDefined()) {
          for (const each of observers) each.disconnect();
          observers.clear();
          roots.clear();
          return;
        }
        for (const record of records) for (const node of record.addedNodes) look(node);
      });
      observer.observe(root, { childList: true, subtree: true });
      observers.add(observer);
    },
  };
}
