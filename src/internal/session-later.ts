/**
 * What a session element needs only after its form is on screen, in one module loaded on demand:
 * the caller that talks to the proxy, the flow's tools (polling, time limits, removal) and the
 * session runtime (running, keeping and following a session, the page's comings and goings, the
 * end states). The form's first paint waits for none of it; the element asks for it right after
 * (with the elements an entry defines later, session-later-load.ts).
 */
export { proxyClient } from './proxy-client.js';
export * from './flow-tools.js';
export { SessionRuntime } from './session-runtime.js';
