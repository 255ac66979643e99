import { OPERATION_IDS, type OperationId } from '../protocol/operations.js';
import { FILE_STARTS } from './start-rules.js';

export type Channel = 'mobile' | 'smartid';
export type SessionKind = 'login' | 'sign' | 'hash';

/** Session starts, and what their tokens may then be used for. */
export const STARTS: Partial<Record<OperationId, { channel: Channel; kind: SessionKind; status: OperationId }>> = {
  mobileLogin: { channel: 'mobile', kind: 'login', status: 'mobileLoginStatus' },
  smartIdLogin: { channel: 'smartid', kind: 'login', status: 'smartIdLoginStatus' },
  mobileSign: { channel: 'mobile', kind: 'sign', status: 'mobileSignStatus' },
  smartIdSign: { channel: 'smartid', kind: 'sign', status: 'smartIdSignStatus' },
  mobileHashSign: { channel: 'mobile', kind: 'hash', status: 'mobileHashSignStatus' },
  smartIdHashSign: { channel: 'smartid', kind: 'hash', status: 'smartIdHashSignStatus' },
};
/** A status operation's session start, by the status operation. */
export const STATUS_OF: Partial<Record<OperationId, { channel: Channel; kind: SessionKind; status: OperationId }>> = Object.fromEntries(
  Object.values(STARTS).map((start) => [start.status, start]),
);
export const REMOVALS: Partial<Record<OperationId, Channel>> = { removeMobileSession: 'mobile', removeSmartIdSession: 'smartid' };

/** The session operations: what a proxy forwards unless the host enables more. */
export const SESSION_OPERATIONS: readonly OperationId[] = [
  ...(Object.keys(STARTS) as OperationId[]),
  ...(Object.keys(STATUS_OF) as OperationId[]),
  ...(Object.keys(REMOVALS) as OperationId[]),
];
export const DOCUMENT_OPERATIONS: readonly OperationId[] = OPERATION_IDS.filter((id) => !SESSION_OPERATIONS.includes(id));
/** Session operations that carry no file: their bodies are small (`sessionBodyLimit`). */
export const SMALL_BODIES: ReadonlySet<OperationId> = new Set(SESSION_OPERATIONS.filter((id) => !FILE_STARTS.has(id)));
/** Document operations whose success is handed to `onResult`. */
export const DOCUMENT_RESULTS: ReadonlySet<OperationId> = new Set<OperationId>([
  'uploadDocument',
  'inviteSigner',
  'removeDocument',
  'generateTemporarySigningLink',
  'removeTemporarySigner',
]);
