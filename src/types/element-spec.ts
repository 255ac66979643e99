/** The framework-independent shape of an element in a template, made into React's and Vue's types. */
/**
 * A property's value, or its attribute form where it has one (the elements accept both): lists as
 * "smartid mobile", numbers as "1000", booleans as "" (present).
 */
export type WithAttributeForm<T> = T extends readonly unknown[] ? T | string : T extends number ? T | `${number}` : T extends boolean ? boolean | '' : T;
/** The element's own properties. */
export type ElementProperties<E> = {
  [K in keyof Omit<E, keyof HTMLElement>]?: WithAttributeForm<E[K]>;
};
/** Attributes with a dash, by the property they set. */
export type ElementAttributes<E, A extends Record<string, keyof E>> = {
  [K in keyof A]?: WithAttributeForm<E[A[K]]> | (E[A[K]] extends string ? string : never);
};

/** One element: its class, its dashed attributes, its events. */
export interface ElementSpec<E extends HTMLElement, A extends Record<string, keyof E>, N extends keyof HTMLElementEventMap> {
  element: E;
  props: ElementProperties<E> & ElementAttributes<E, A>;
  events: N;
}
