type CamelKey<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelKey<Tail>>}` : S;

/** A service object with its snake_case keys in camelCase, deeply. */
export type CamelCased<T> = T extends readonly (infer U)[]
  ? CamelCased<U>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelKey<K> : K]: CamelCased<T[K]> }
    : T;

/** Turns the snake_case keys of a service answer into camelCase, deeply (values are kept). */
export function camelCased<T>(value: T): CamelCased<T> {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- CamelCased<T> of an array is the array of its items' CamelCased
  if (Array.isArray(value)) return (value as unknown[]).map((item) => camelCased(item)) as CamelCased<T>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- CamelCased<T> of a primitive is the primitive
  if (value === null || typeof value !== 'object') return value as CamelCased<T>;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key.replace(/_([a-z0-9])/g, (_, ch: string) => ch.toUpperCase())] = camelCased(item);
  }
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- built key by key as CamelCased<T> names them
  return out as CamelCased<T>;
}
