import { strings as form } from './en-form.js';
import { strings as session } from './en-session.js';
import { strings as documents } from './en-documents.js';

/**
 * English, every key: the source of every key, and the fallback of every language. Elements load
 * a language in parts (`en-form.ts`, `en-session.ts`, `en-documents.ts`), so a page loads only what its elements say.
 */
export const en = { ...form, ...session, ...documents };

export type StringKey = keyof typeof en;
export type Strings = Record<StringKey, string>;
