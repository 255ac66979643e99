import type { Strings } from './en.js';
import { strings as session } from './lv-session.js';
import { strings as documents } from './lv-documents.js';

/** Latvian, every key (elements load it in parts: `lv-session.ts`, `lv-documents.ts`). */
export const lv: Strings = { ...session, ...documents };
