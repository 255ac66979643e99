/** Registers a custom element unless that name is taken already (a second copy of the bundle, say). */
export function defineElement(name: string, constructor: CustomElementConstructor): void {
  if (typeof customElements === 'undefined' || customElements.get(name)) return;
  customElements.define(name, constructor);
}
