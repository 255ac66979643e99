/*
 * The deadlines of the bodies being read, looked at by one timer for all of them rather than a
 * timer set and cleared for every request: a body past its deadline is given up within
 * SWEEP_EVERY_MS of it. The timer runs only while a body is being read and never keeps the
 * process alive.
 */

const SWEEP_EVERY_MS = 50;

export interface BodyDeadline {
  /** When the body must have arrived, ms since the epoch. */
  at: number;
  /** Gives the body up. */
  expire: () => void;
}

const watched = new Set<BodyDeadline>();
let sweeper: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  const now = Date.now();
  for (const deadline of watched) {
    if (deadline.at > now) continue;
    watched.delete(deadline);
    deadline.expire();
  }
  if (watched.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

export function watchDeadline(deadline: BodyDeadline): void {
  watched.add(deadline);
  if (!sweeper) {
    sweeper = setInterval(sweep, SWEEP_EVERY_MS);
    sweeper.unref?.();
  }
}

export function unwatchDeadline(deadline: BodyDeadline): void {
  watched.delete(deadline);
}
