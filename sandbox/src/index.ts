export { Sandbox, startSandbox, DEFAULT_ACCESS_TOKEN, type SandboxOptions, type RunningSandbox } from './server.js';
export { PERSONAS, type Persona, type Outcome } from './personas.js';
export { samplePdf } from './sample-pdf.js';
export { mobileIdControlCode, smartIdControlCode } from './service/control-code.js';
export { findRoute, type Route, type RouteId } from './service/routes.js';
export type * from './types.js';
export { checkProxy, checkTable, type CheckOptions, type CheckRow } from './check-proxy/check.js';
