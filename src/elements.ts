/** Every element of the package, by tag name. Element issues add theirs here. */
export const ELEMENTS: Record<string, CustomElementConstructor> = {};
