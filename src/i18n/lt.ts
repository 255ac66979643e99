import type { Strings } from './en.js';
import { strings as session } from './lt-session.js';
import { strings as documents } from './lt-documents.js';

/** Lithuanian, every key (elements load it in parts: `lt-session.ts`, `lt-documents.ts`). */
export const lt: Strings = { ...session, ...documents };
