import type { Strings } from './en.js';
import { strings as form } from './ru-form.js';
import { strings as session } from './ru-session.js';
import { strings as documents } from './ru-documents.js';

/** Russian, every key (elements load it in parts: `ru-form.ts`, `ru-session.ts`, `ru-documents.ts`). */
export const ru: Strings = { ...form, ...session, ...documents };
