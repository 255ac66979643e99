/*
 * Loaded into a bench's server process (`node --import ./bench/loop-delay.mjs`): on SIGUSR2 it
 * writes how late its event loop was since the signal before (p50, p99, max, ms) to the file
 * ESIGN_BENCH_LOOP_FILE names, with a count the bench waits for, and begins again.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.ESIGN_BENCH_LOOP_FILE;
if (file) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let count = 0;
  process.on('SIGUSR2', () => {
    count += 1;
    // the histogram holds each interval of its 10 ms timer: how late it was is the rest
    const ms = (ns) => Math.max(0, Math.round((ns / 1e6 - 10) * 10) / 10);
    const said = { count, p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    histogram.reset();
    writeFileSync(file, JSON.stringify(said));
  });
}
