import type { Strings } from './en.js';
import { strings as session } from './ru-session.js';
import { strings as documents } from './ru-documents.js';

/** Russian, every key (elements load it in parts: `ru-session.ts`, `ru-documents.ts`). */
export const ru: Strings = { ...session, ...documents };
