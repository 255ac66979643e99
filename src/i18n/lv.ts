import type { Strings } from './en.js';
import { strings as form } from './lv-form.js';
import { strings as session } from './lv-session.js';
import { strings as documents } from './lv-documents.js';

/** Latvian, every key (elements load it in parts: `lv-form.ts`, `lv-session.ts`, `lv-documents.ts`). */
export const lv: Strings = { ...form, ...session, ...documents };
