import { OPERATIONS, OPERATION_IDS, type OperationId } from '../protocol/operations.js';
import { FILE_STARTS, SESSION_OPERATION_IDS, STARTS, type Channel, type SessionKind } from '../protocol/proxy-rules.js';

export type { Channel, SessionKind } from '../protocol/proxy-rules.js';
export { STARTS, REMOVALS } from '../protocol/proxy-rules.js';

/** A status operation's session start, by the status operation. */
export const STATUS_OF: Partial<Record<OperationId, { channel: Channel; kind: SessionKind; status: OperationId }>> = Object.fromEntries(
  Object.values(STARTS).map((start) => [start.status, start]),
);

/** The session operations: what a proxy forwards unless the host enables more. */
export const SESSION_OPERATIONS: readonly OperationId[] = SESSION_OPERATION_IDS;
export const DOCUMENT_OPERATIONS: readonly OperationId[] = OPERATION_IDS.filter((id) => !SESSION_OPERATIONS.includes(id));
/** Session operations that carry no file: their bodies are small (`sessionBodyLimit`). */
export const SMALL_BODIES: ReadonlySet<OperationId> = new Set(SESSION_OPERATIONS.filter((id) => !FILE_STARTS.has(id)));
/** Document operations whose success is handed to `onResult` (their `result` in the operation table). */
export const DOCUMENT_RESULTS: ReadonlySet<OperationId> = new Set(OPERATION_IDS.filter((id) => OPERATIONS[id].result === 'document'));

/**
 * Operations the service may be sent twice with no effect (a status, a read, a session's removal):
 * sent again once when a kept-alive connection to the service broke as the request set out (their
 * `repeatable` in the operation table).
 */
export const REPEATABLE: ReadonlySet<OperationId> = new Set(OPERATION_IDS.filter((id) => OPERATIONS[id].repeatable === true));
