// `npm run fuzz`: the abuse suite (test/unit/abuse) with a large budget. FUZZ_RUNS sets the inputs per
// property (default 2000); prints how many inputs were tried in all.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = process.env.FUZZ_RUNS || '2000';
const report = join(tmpdir(), `geoportal-fuzz-${process.pid}.tsv`);
writeFileSync(report, '');
const started = Date.now();
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--project', 'unit', 'test/unit/abuse', '--testTimeout', String(24 * 3600 * 1000)],
  { stdio: 'inherit', env: { ...process.env, FUZZ_RUNS: runs, FUZZ_REPORT: report } },
);
const lines = readFileSync(report, 'utf8').trim().split('\n').filter(Boolean);
rmSync(report, { force: true });
const total = lines.reduce((n, line) => n + Number(line.split('\t')[1]), 0);
for (const line of lines) console.log(`  ${line.replace('\t', ': ')} inputs`);
console.log(
  `fuzz: ${total} inputs tried (FUZZ_RUNS=${runs} per property) in ${Math.round((Date.now() - started) / 1000)} s, ${run.status === 0 ? 'no failures' : 'FAILURES above'}`,
);
process.exit(run.status ?? 1);
