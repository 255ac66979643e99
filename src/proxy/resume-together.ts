import type { Resume } from './core.js';

const waiting: (() => void)[] = [];
let resuming = false;

/**
 * How the Node handler's requests go on after a wait (their body, the service's answer): together
 * with the others whose waits ended, one after another on the next turn of the event loop, in the
 * order their waits ended, rather than each as its wait ends. The steps' code and Node's code that
 * writes the answers then run warm, request after request, as a batch's spans do (telemetry.ts):
 * that took a busy proxy from about 1.10× a bare pass-through's CPU time a poll to about 0.97×
 * (docs/testing.md). A request that waits again joins a later batch.
 */
export const resumeTogether: Resume = (next) => {
  waiting.push(next);
  if (resuming) return;
  resuming = true;
  setImmediate(resumeWaiting);
};

function resumeWaiting(): void {
  resuming = false;
  for (const next of waiting.splice(0)) {
    try {
      next();
    } catch (error) {
      // thrown as it would have been on its own, once the others went on
      process.nextTick(() => {
        throw error;
      });
    }
  }
}
