import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

/*
 * CPU time a status poll in each server with no network at all: the handler is given node:http
 * request and response objects, and the service answers at once (bench/in-process). What is
 * left is the proxy's own work, and a change to it shows as such: over loopback
 * (bench/proxy-cpu.ts) one process of the same code can differ from another by 10% or more on a
 * machine like this one, more than most changes save. Not part of `npm run bench`; run it so:
 *   node --import tsx bench/proxy-in-process.ts [label=mode[@built dir] ...]
 * Modes as bench/in-process/server.mjs has them; without arguments, the pass-through, the proxy
 * and the proxy with OpenTelemetry, all from dist/. Two builds compare as `a=proxy@one-dir
 * b=proxy@another-dir` (compiled as bench/proxy-cpu.ts says).
 *
 * Each server runs in PROCESSES processes, started in turns (the order reversed every other
 * turn), each for ROUNDS rounds of POLLS polls; the first WARM rounds of a process are not
 * counted. A server's figure is the median of its processes' counted rounds. With
 * ESIGN_BENCH_WHAT=starts it measures session starts instead (each of a new visitor).
 */

const PROCESSES = Number(process.env['PROCESSES'] ?? 3);
const ROUNDS = 8;
const WARM = 2;
const POLLS = 40_000;

const run = promisify(execFile);
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : ['pass-through=pass-through', 'proxy=proxy', 'proxy-otel=proxy-otel'];
const servers = wanted.map((spec) => {
  const [label, how = ''] = spec.split('=') as [string, string?];
  const [mode = 'proxy', built] = how.split('@');
  return { label, mode, built: built ? resolve(built) : '', perPoll: [] as number[] };
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

for (let turn = 0; turn < PROCESSES; turn++) {
  for (const server of turn % 2 ? [...servers].reverse() : servers) {
    const { stdout } = await run(process.execPath, ['bench/in-process/server.mjs', server.mode, server.built, String(ROUNDS), String(POLLS)]);
    server.perPoll.push(...(JSON.parse(stdout) as number[]).slice(WARM));
  }
}
const first = median(servers[0]!.perPoll);
const what = process.env['ESIGN_BENCH_WHAT'] === 'starts' ? ['a session start', 'starts'] : ['a status poll', 'polls'];
console.log(
  `| CPU time ${what[0]} in process, no network, ${PROCESSES} processes × ${ROUNDS - WARM} rounds of ${POLLS} ${what[1]}, median | µs | against the first |`,
);
console.log('|---|---:|---:|');
for (const server of servers) {
  const us = median(server.perPoll);
  console.log(`| ${server.label} | ${us.toFixed(2)} | ${(us / first).toFixed(3)}× |`);
}
