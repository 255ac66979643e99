/*
 * A node under a burst turns new session starts away early and honestly (429 with Retry-After)
 * before its event loop falls behind the sessions it already has: their polls, hand-overs and
 * store calls keep their time. Two signs, either enough: too many starts in flight on this node,
 * or its event loop late by more than the limit in the last second or so.
 */

export interface PressureLimits {
  /** Session starts this node works on at once; one more is refused. Default 1000. */
  maxStartsInFlight?: number;
  /** How late this node's event loop may have been lately, ms, before a start is refused. Default 1000 (a host's own work may hold it a moment). */
  maxEventLoopDelayMs?: number;
}

export const DEFAULT_PRESSURE = { maxStartsInFlight: 1_000, maxEventLoopDelayMs: 1_000 } as const;
/** The seconds a start turned away for the node's load is told to wait. */
export const BUSY_RETRY_AFTER = 2;
/** How long a late event loop counts as lately, ms: the histogram is read and begun again this often. */
const WINDOW_MS = 1_000;

export type PressureSign = 'starts-in-flight' | 'event-loop-delay';

/** How often the event loop's lateness is sampled, ms. */
const SAMPLE_MS = 20;

export class Pressure {
  readonly #maxInFlight: number;
  readonly #maxDelayMs: number;
  #inFlight = 0;
  #sampler: ReturnType<typeof setInterval> | null = null;
  #lastTick = 0;
  #windowStart = 0;
  #windowLateMs = 0;
  #lastWindowLateMs = 0;

  constructor(limits: PressureLimits) {
    this.#maxInFlight = limits.maxStartsInFlight ?? DEFAULT_PRESSURE.maxStartsInFlight;
    this.#maxDelayMs = limits.maxEventLoopDelayMs ?? DEFAULT_PRESSURE.maxEventLoopDelayMs;
  }

  /** Why a new start should wait now, or null. */
  busy(): PressureSign | null {
    this.#sample();
    if (this.#inFlight >= this.#maxInFlight) return 'starts-in-flight';
    return this.lateMs() > this.#maxDelayMs ? 'event-loop-delay' : null;
  }

  /** How late the event loop was at worst lately (this window and the one before), ms. */
  lateMs(): number {
    return Math.max(this.#windowLateMs, this.#lastWindowLateMs, this.#sampler ? performance.now() - this.#lastTick - SAMPLE_MS : 0);
  }

  /** A start begins on this node; the function it gives back ends it (once). */
  enter(): () => void {
    this.#inFlight += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#inFlight -= 1;
    };
  }

  get startsInFlight(): number {
    return this.#inFlight;
  }

  close(): void {
    if (this.#sampler) clearInterval(this.#sampler);
    this.#sampler = null;
  }

  /** The sampler, begun with the first start (a proxy made and never asked ticks nothing); it keeps no process alive. */
  #sample(): void {
    if (this.#sampler) return;
    this.#lastTick = this.#windowStart = performance.now();
    this.#sampler = setInterval(() => {
      const now = performance.now();
      this.#windowLateMs = Math.max(this.#windowLateMs, now - this.#lastTick - SAMPLE_MS);
      this.#lastTick = now;
      if (now - this.#windowStart >= WINDOW_MS) {
        this.#lastWindowLateMs = this.#windowLateMs;
        this.#windowLateMs = 0;
        this.#windowStart = now;
      }
    }, SAMPLE_MS);
    this.#sampler.unref?.();
  }
}
