/**
 * A child element an element draws, as its class declares it in `static dependencies`: its class,
 * defined with the element, or `{ later }`, which loads its class when the element asks for it
 * ({@link defineLater}): a child that shows nothing before the element's later state (a session's
 * control code and status) stays out of the element's first file.
 */
export type Dependency = CustomElementConstructor | { later: () => Promise<CustomElementConstructor> };

/** An element class that may declare the children it draws. */
type WithDependencies = CustomElementConstructor & { dependencies?: Readonly<Record<string, Dependency>> };

const isClass = (dependency: Dependency): dependency is CustomElementConstructor => typeof dependency === 'function';

/**
 * Registers a custom element, and first the children its class names in `static dependencies`,
 * unless a name is taken already (a second copy of the bundle, say).
 */
export function defineElement(name: string, constructor: CustomElementConstructor): void {
  if (typeof customElements === 'undefined') return;
  for (const [child, dependency] of Object.entries((constructor as WithDependencies).dependencies ?? {})) {
    if (isClass(dependency)) defineElement(child, dependency);
  }
  if (!customElements.get(name)) customElements.define(name, constructor);
}

/** Loads and defines the children a class declared `{ later }`. */
export async function defineLater(constructor: CustomElementConstructor): Promise<void> {
  const later = Object.entries((constructor as WithDependencies).dependencies ?? {}).flatMap(([tag, dependency]) =>
    isClass(dependency) ? [] : [[tag, dependency.later] as const],
  );
  await Promise.all(later.map(async ([tag, load]) => defineElement(tag, await load())));
}
