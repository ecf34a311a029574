/**
 * Loaded into the API processes the tile bench starts (`--import`): every second each process appends
 * its event-loop delay over that second (p50, p99, max in ms, from perf_hooks' histogram) to
 * `$TILE_BENCH_ELD_DIR/eld-<pid>.jsonl`, so the bench can say whether the server's loop stalled during a
 * run (a stall there is every waiting request's latency) or the tail came from elsewhere.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.TILE_BENCH_ELD_DIR;
if (dir) {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const file = join(dir, `eld-${process.pid}.jsonl`);
  setInterval(() => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    const line = {
      t: Date.now(),
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
    };
    histogram.reset();
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}
