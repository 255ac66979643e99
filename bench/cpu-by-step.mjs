/*
 * Loaded into a bench's server process (`node --import ./bench/cpu-by-step.mjs`) for
 * `npm run bench:oidc -- --steps`: the process's CPU time from each request's arrival to its
 * answer's end, by method and path (ids as :id). Right only while requests come one at a time.
 * On SIGUSR1 it writes the means to ESIGN_BENCH_STEPS_FILE (JSON) and begins again.
 */
import { Server } from 'node:http';
import { writeFileSync } from 'node:fs';

const file = process.env.ESIGN_BENCH_STEPS_FILE;
if (file) {
  const steps = new Map();
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (name, req, res) {
    if (name === 'request') {
      const before = process.cpuUsage();
      const step = `${req.method} ${(req.url ?? '').split('?')[0].replace(/[A-Za-z0-9_-]{20,}/g, ':id')}`;
      res.on('finish', () => {
        const spent = process.cpuUsage(before);
        const seen = steps.get(step) ?? { count: 0, us: 0 };
        seen.count += 1;
        seen.us += spent.user + spent.system;
        steps.set(step, seen);
      });
    }
    return emit.apply(this, arguments);
  };
  process.on('SIGUSR1', () => {
    writeFileSync(file, JSON.stringify(Object.fromEntries([...steps].map(([step, { count, us }]) => [step, { count, ms: us / count / 1000 }]))));
    steps.clear();
  });
}
