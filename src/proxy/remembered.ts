/** How many answers are kept a secret: about as many sessions as a node polls at once. */
export const REMEMBERED = 8192;

/**
 * A pure function of a secret and a value, with its recent answers kept: a session is polled every
 * second or so with the same cookie and token, and each of their keyed digests (an HMAC apiece)
 * would otherwise be made again at every poll. At most `limit` answers a secret, all forgotten at
 * once when that is reached, so memory stays bounded whatever is sent. The values stay in this
 * process's memory a while after their request, beside the secrets they are keyed with: nothing a
 * reader of the memory would not have already.
 */
export function remembered<T>(limit: number, compute: (secret: string, value: string) => T): (secret: string, value: string) => T {
  const bySecret = new Map<string, Map<string, T>>();
  return (secret, value) => {
    let kept = bySecret.get(secret);
    if (!kept) {
      kept = new Map();
      bySecret.set(secret, kept);
    }
    let answer = kept.get(value);
    if (answer === undefined) {
      answer = compute(secret, value);
      if (kept.size >= limit) kept.clear();
      kept.set(value, answer);
    }
    return answer;
  };
}
