export type ServiceLocale = 'lt' | 'en';

/** Where an operation lives at the service. */
export interface OperationSpec {
  method: 'POST' | 'DELETE' | 'GET';
  path: string;
  /** Whether the path has an `/en` locale variant. */
  localized: boolean;
  /** It answers a file (its bytes, named by Content-Disposition) when it succeeds, not JSON. */
  answersFile?: true;
  /** It may be sent twice with no effect (a status, a read, a session's removal): the proxy sends it again once when a kept-alive connection broke as it set out. */
  repeatable?: true;
  /** Its success is a document's result, handed to the proxy's `onResult` (a session's result is its status's). */
  result?: 'document';
}

/** Characters a URL parameter (token, uuid, session id) may hold: no dots, slashes or escapes. */
export const PARAM_PATTERN = '[A-Za-z0-9_-]{1,128}';
const PARAM_TEST = new RegExp(`^${PARAM_PATTERN}$`);

export function isSafePathParam(value: string): boolean {
  return PARAM_TEST.test(value);
}

/** Builds the service path of an operation; throws on a parameter that is not a safe id. */
export function pathOf(operation: OperationSpec, params: Record<string, string>, locale: ServiceLocale): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || !isSafePathParam(value)) {
      throw new TypeError(`Invalid ${name} for ${operation.path}: ${String(value)}`);
    }
    return value;
  });
  return operation.localized && locale === 'en' ? `/en${path}` : path;
}
