import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

function count(suite, totals) {
  for (const test of suite.tests ?? []) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites ?? []) count(child, totals);
}

/** A web-test-runner reporter that writes the totals of every test in every browser to a file. */
export function countingReporter(file) {
  return {
    onTestRunFinished({ sessions }) {
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        if (session.testResults) count(session.testResults, totals);
        // a file that failed to load or threw outside a test counts as a failure
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed++;
      }
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(totals));
    },
  };
}
