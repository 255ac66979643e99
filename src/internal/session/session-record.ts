import type { Channel, SessionKind } from '../../client/caller.js';
import { COUNTRIES, type Country } from '../../protocol/types.js';
import { webStorage } from '../data/web-storage.js';
import { isRecord } from '../../protocol/checks.js';

/**
 * What a session element keeps in the tab's `sessionStorage` while a person confirms on their
 * phone, so that a reloaded page (a phone discards a tab in the background and reloads it when
 * the person returns) follows the same session to its end instead of starting another. No
 * personal code or phone in clear: the person as the waiting state shows them, masked. The token
 * is worthless elsewhere: the proxy answers it only for the visitor who started it.
 */
export interface SessionRecord {
  v: 1;
  kind: SessionKind;
  channel: Channel;
  /** The person's country at the start (remembered with the method if the session ends well). */
  country?: Country;
  token: string;
  controlCode: string;
  /** When waiting began and when the session can no longer be alive, ms since the epoch. */
  since: number;
  until: number;
  /** The masked person and what is signed, as the waiting state says them. */
  who: string;
  subject: string;
  /** An element's own data for its result (hash signing: the hash and its algorithm). */
  extra?: Record<string, string>;
}

const PREFIX = 'esign-elements:session:';

/** The tab's own storage: without it, no resume and nothing else changes. */
const storage = () => webStorage('sessionStorage');

/**
 * The element's place on its page: its path, its tag and its id, else its position among the
 * elements of its tag in its document or shadow root. Two elements never share a key; a tab's
 * storage is its own, so two tabs never see each other's.
 */
export function recordKey(element: HTMLElement): string {
  const tag = element.localName;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- an element's root is a document or a shadow root, both parent nodes
  const root = element.getRootNode() as ParentNode;
  const place = element.id || String([...root.querySelectorAll(tag)].indexOf(element));
  return `${PREFIX}${location.pathname}:${tag}:${place}`;
}

export function writeRecord(key: string, record: SessionRecord): void {
  try {
    storage()?.setItem(key, JSON.stringify(record));
  } catch {
    // a full or refused storage: the session goes on, only a reload would lose it
  }
}

export function dropRecord(key: string): void {
  storage()?.removeItem(key);
}

/** Whether a session is kept under `key` (read whole only then, by the session runtime). */
export function isKept(key: string): boolean {
  return storage()?.getItem(key) != null;
}

/**
 * The record under `key` when it is one of this version, field by field (the tab's storage is
 * anyone's on the page: a script, an older version); anything else is dropped.
 */
export function readRecord(key: string): SessionRecord | null {
  let stored: unknown = null;
  try {
    stored = JSON.parse(storage()?.getItem(key) ?? 'null');
  } catch {
    // not JSON: dropped below
  }
  if (stored === null) return null;
  if (isSessionRecord(stored)) return stored;
  dropRecord(key);
  return null;
}

const KINDS: readonly unknown[] = ['login', 'sign', 'hash'];
const CHANNELS: readonly unknown[] = ['mobile', 'smartid'];

/** Whether a value read back is a record of this version, every field of its type. */
function isSessionRecord(value: unknown): value is SessionRecord {
  if (!isRecord(value)) return false;
  const r = value;
  const text = (field: unknown) => typeof field === 'string';
  const time = (field: unknown) => typeof field === 'number' && Number.isFinite(field);
  const extra = r['extra'];
  return (
    r['v'] === 1 &&
    KINDS.includes(r['kind']) &&
    CHANNELS.includes(r['channel']) &&
    (r['country'] === undefined || (COUNTRIES as readonly unknown[]).includes(r['country'])) &&
    text(r['token']) &&
    text(r['controlCode']) &&
    time(r['since']) &&
    time(r['until']) &&
    text(r['who']) &&
    text(r['subject']) &&
    (extra === undefined || (typeof extra === 'object' && extra !== null && Object.values(extra).every(text)))
  );
}
