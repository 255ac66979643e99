import type { Strings } from './en.js';
import { strings as form } from './lt-form.js';
import { strings as session } from './lt-session.js';
import { strings as documents } from './lt-documents.js';

/** Lithuanian, every key (elements load it in parts: `lt-form.ts`, `lt-session.ts`, `lt-documents.ts`). */
export const lt: Strings = { ...form, ...session, ...documents };
