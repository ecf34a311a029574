#!/usr/bin/env node
// Runs vitest (unit and integration projects) and ends with one plain summary line, "N passed, N failed",
// that CI and people can read without scrolling. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const out = join('.data', 'test-results.json');
mkdirSync('.data', { recursive: true });
const run = spawnSync(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit' },
);
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  const skipped = r.numPendingTests + r.numTodoTests;
  console.log(
    `\n${r.numPassedTests} passed, ${r.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ''}`,
  );
} catch {
  console.log('\nno test results were written');
}
process.exit(run.status ?? 1);
