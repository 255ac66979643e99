import type { Strings } from './en.js';
import { strings as session } from './et-session.js';
import { strings as documents } from './et-documents.js';

/** Estonian, every key (elements load it in parts: `et-session.ts`, `et-documents.ts`). */
export const et: Strings = { ...session, ...documents };
