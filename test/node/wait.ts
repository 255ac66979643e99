import type { ChildProcess } from 'node:child_process';

/**
 * Waits for a condition with a deadline: what a test means by "once this happened", never a fixed
 * time. `check` may ask over the network (async); `what` names the condition in the failure.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, limitMs = 5_000, everyMs = 5): Promise<void> {
  for (const deadline = Date.now() + limitMs; !(await check()); await new Promise((resolve) => setTimeout(resolve, everyMs))) {
    if (Date.now() > deadline) throw new Error(`never came: ${what}`);
  }
}

/** Waits until a process this test started answers at `url` (any HTTP answer); fails at once, with its log, should it exit. */
export async function untilAnswering(url: string, child: ChildProcess, log: () => string, limitMs = 10_000): Promise<void> {
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`it exited (${child.exitCode}) before answering at ${url}: ${log()}`);
      return fetch(url).then(
        (answer) => (void answer.body?.cancel(), true),
        () => false,
      );
    },
    `an answer at ${url}: ${log()}`,
    limitMs,
    100,
  );
}
