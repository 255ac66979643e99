/*
 * The deadlines of the bodies being read, looked at by one timer for all of them rather than a
 * timer set and cleared for every request: a body past its deadline is given up within
 * SWEEP_EVERY_MS of it. The timer runs only while a body is being read and never keeps the
 * process alive.
 *
 * The deadlines watched are a list linked through the deadlines themselves, so watching and
 * unwatching one allocates nothing. Kept in a Set instead, with many bodies read at once, they
 * had about a kilobyte a request reach the old generation (docs/testing.md).
 */

const SWEEP_EVERY_MS = 50;

/** When a body must have arrived, and what gives it up. */
export class BodyDeadline {
  previous: BodyDeadline | undefined = undefined;
  next: BodyDeadline | undefined = undefined;

  constructor(
    /** ms since the epoch; moved later as the body grows */
    public at: number,
    readonly expire: () => void,
  ) {}
}

const nothing = (): void => undefined;
/** The list's two ends, never deadlines of a body. */
const first = new BodyDeadline(Infinity, nothing);
const last = new BodyDeadline(Infinity, nothing);
first.next = last;
last.previous = first;
let watching = 0;
let sweeper: ReturnType<typeof setInterval> | undefined;

function sweep(): void {
  const now = Date.now();
  // the overdue ones found first, then given up: what giving one up does never changes the walk
  let overdue: BodyDeadline[] | undefined;
  for (let deadline = first.next!; deadline !== last; deadline = deadline.next!) {
    if (deadline.at <= now) (overdue ??= []).push(deadline);
  }
  for (const deadline of overdue ?? []) {
    // still watched: giving up another may have ended this one's reading
    if (!deadline.previous) continue;
    unwatchDeadline(deadline);
    deadline.expire();
  }
  if (watching === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}

export function watchDeadline(deadline: BodyDeadline): void {
  if (deadline.previous) return;
  deadline.previous = last.previous!;
  deadline.next = last;
  last.previous!.next = deadline;
  last.previous = deadline;
  watching++;
  if (!sweeper) {
    sweeper = setInterval(sweep, SWEEP_EVERY_MS);
    sweeper.unref?.();
  }
}

export function unwatchDeadline(deadline: BodyDeadline): void {
  if (!deadline.previous) return;
  deadline.previous.next = deadline.next;
  deadline.next!.previous = deadline.previous;
  deadline.previous = deadline.next = undefined;
  watching--;
}
