/** A request as each adapter (Node, fetch) hands it to the core. */
export interface IncomingProxyRequest {
  method: string;
  /** Path and query exactly as received (the prefix included). */
  url: string;
  /** One request header (names in lower case), null when absent. */
  header: (name: string) => string | null;
  /** All headers, made when a host hook asks for them. */
  headers: () => Headers;
  /** Came over https (decides the visitor cookie's Secure flag). */
  secure: boolean;
  /** host:port the request was sent to, for the same-origin check. */
  host: string | null;
  raw: unknown;
  /** A body a framework's parser already read, if any. */
  parsedBody?: unknown;
  /** Reads the body; rejects with BodyTooLarge over `limit`, BodyTimeout past the deadline. */
  readBody: (limit: number, timeoutFor: (bytes: number) => number) => Promise<Uint8Array>;
}

export class BodyTooLarge extends Error {}
export class BodyTimeout extends Error {}
