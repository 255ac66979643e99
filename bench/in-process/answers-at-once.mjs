/*
 * The service as bench/proxy-in-process.ts has it: every call answered at once, a session start
 * with a session and a status poll with `waiting`. The errors the proxy tells apart are the
 * real module's, so that its checks of them still hold.
 */
const real = await import(new URL(import.meta.url).searchParams.get('real'));

export const UpstreamFailure = real.UpstreamFailure;
const started = Buffer.from(JSON.stringify({ status: 'ok', token: '2309a5de-a0ea-4f1b-ab1c-caabcdd1fc4c', control_code: '2267' }));
const waiting = Buffer.from('{"status":"waiting"}');

export function createUpstream() {
  return (_method, path) => Promise.resolve({ status: 200, contentType: 'application/json', disposition: '', bytes: path.includes('/status/') ? waiting : started });
}
