import type { UploadSender } from './caller.js';

/** Bodies without content (their Response cannot be made with one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) {
      try {
        headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      } catch {
        // a header the browser would not have handed to fetch either
      }
    }
  }
  return headers;
}

/**
 * A POST through XMLHttpRequest, answered as fetch answers: fetch tells nothing of a body's way up,
 * and a 20 MB document on a slow uplink takes a minute. `onProgress` gets the bytes sent so far and
 * the body's total. A network failure rejects with a TypeError and an abort with an AbortError, as
 * fetch's do.
 */
export const sendWithProgress: UploadSender = (url, init, onProgress) => {
  // a page without it (a server rendering) sends as fetch does, telling nothing
  if (typeof XMLHttpRequest != 'function') return fetch(url, init);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const done = () => init.signal.removeEventListener('abort', abort);
    xhr.open(init.method, url);
    xhr.responseType = 'blob';
    for (const [name, value] of Object.entries(init.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => {
      done();
      // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- responseType 'blob' answers a Blob
      const body = NULL_BODY.has(xhr.status) ? null : (xhr.response as Blob);
      try {
        resolve(new Response(body, { status: xhr.status, statusText: xhr.statusText, headers: headersOf(xhr.getAllResponseHeaders()) }));
      } catch (cause) {
        reject(new TypeError('An answer fetch could not read', { cause }));
      }
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new TypeError('Failed to send'));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(new DOMException('The request was aborted', 'AbortError'));
    });
    if (init.signal.aborted) {
      reject(new DOMException('The request was aborted', 'AbortError'));
      return;
    }
    init.signal.addEventListener('abort', abort);
    xhr.send(init.body);
  });
};
