/*
 * Module hooks of bench/proxy-in-process.ts: the proxy's client to the service (proxy/upstream.js
 * of the build measured) is replaced by one that answers at once, so that the CPU time measured
 * is the proxy's own, without a network. The replacement itself reaches the real module.
 */
const ANSWERS = new URL('./answers-at-once.mjs', import.meta.url).href;

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.endsWith('/proxy/upstream.js') && !context.parentURL?.startsWith(ANSWERS)) return { ...resolved, url: `${ANSWERS}?real=${encodeURIComponent(resolved.url)}` };
  return resolved;
}
