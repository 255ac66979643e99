import type { Strings } from './en.js';
import { strings as form } from './et-form.js';
import { strings as session } from './et-session.js';
import { strings as documents } from './et-documents.js';

/** Estonian, every key (elements load it in parts: `et-form.ts`, `et-session.ts`, `et-documents.ts`). */
export const et: Strings = { ...form, ...session, ...documents };
