import { OPERATIONS, OPERATION_IDS, type OperationId, type OperationSpec } from './operations.js';
import { PARAM_PATTERN, type ServiceLocale } from './paths.js';

/*
 * Matching raw request paths to operations: for the proxy and the sandbox. Kept apart from
 * operations.ts so that browser bundles do not build these patterns at load time.
 */

export interface MatchedOperation {
  id: OperationId;
  params: Record<string, string>;
  locale: ServiceLocale;
}

/** The path prefix of the service's English pages (a localized operation's path, otherwise Lithuanian). */
const ENGLISH = '/en';

const MATCHERS = OPERATION_IDS.map((id) => {
  const spec: OperationSpec = OPERATIONS[id];
  const names: string[] = [];
  const body = spec.path
    .split(/(\{\w+\})/)
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      if (name) {
        names.push(name);
        return `(${PARAM_PATTERN})`;
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const prefix = spec.localized ? `(${ENGLISH})?` : '()';
  // the path's text before its first parameter: most operations are told apart by it alone
  const literal = spec.path.split('{')[0] ?? spec.path;
  return { id, method: spec.method, names, literal, localized: Boolean(spec.localized), regex: new RegExp(`^${prefix}${body}$`) };
});

/**
 * Finds the operation for a method and a raw (not decoded) path. Anything with a query,
 * an escape, a dot segment or a doubled slash matches nothing.
 */
export function matchOperation(method: string, rawPath: string): MatchedOperation | null {
  const upper = method.toUpperCase();
  for (const matcher of MATCHERS) {
    if (matcher.method !== upper) continue;
    if (!rawPath.startsWith(matcher.literal) && !(matcher.localized && rawPath.startsWith(ENGLISH) && rawPath.startsWith(matcher.literal, ENGLISH.length)))
      continue;
    const found = matcher.regex.exec(rawPath);
    if (!found) continue;
    const params: Record<string, string> = {};
    matcher.names.forEach((name, i) => {
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- each parameter of the path has its capture group
      params[name] = found[i + 2] as string;
    });
    return { id: matcher.id, params, locale: found[1] ? 'en' : 'lt' };
  }
  return null;
}
