/**
 * The abuse suite's runner: each property runs FUZZ_RUNS inputs (a small default in the test command,
 * a large number under `npm run fuzz`), counts them, and reports the count per suite on the console
 * and, under the fuzz script, into FUZZ_REPORT so the script can print the total.
 */
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, expect } from 'vitest';
import { isGeoError } from '../../../lib/errors.js';

export function fuzzRuns(small: number): number {
  const n = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(n) && n > 0 ? n : small;
}

/**
 * The seed of every property: FUZZ_SEED when set; a fixed one in the test command (the same inputs on
 * every run, so a passing commit passes again); drawn anew under `npm run fuzz` (FUZZ_RUNS set), which
 * is where new inputs are looked for. Drawn inputs found a .dbf whose record count ran shpjs out of
 * memory (a test worker's 4 GB heap, once in the test command); that is refused now
 * (shapefile-zip.ts checkDbfHeader). To hunt by seed: FUZZ_RUNS=1500 FUZZ_SEED=<n> with `--reporter
 * verbose`, which names the last property that finished before a hang.
 */
export function fuzzSeed(): number | undefined {
  const s = Number(process.env.FUZZ_SEED);
  if (process.env.FUZZ_SEED && Number.isInteger(s)) return s;
  return process.env.FUZZ_RUNS ? undefined : 20_261_127;
}

/** Counts the inputs of one test file and reports them when it ends. */
export function fuzzSuite(name: string) {
  let tried = 0;
  afterAll(() => {
    console.log(`[fuzz] ${name}: ${tried} inputs tried`);
    if (process.env.FUZZ_REPORT) appendFileSync(process.env.FUZZ_REPORT, `${name}\t${tried}\n`);
  });
  return {
    check<T>(arb: fc.Arbitrary<T>, predicate: (value: T) => void, small = 100): void {
      fc.assert(
        fc.property(arb, (v) => {
          tried++;
          predicate(v);
        }),
        { numRuns: fuzzRuns(small), seed: fuzzSeed() },
      );
    },
    async checkAsync<T>(
      arb: fc.Arbitrary<T>,
      predicate: (value: T) => Promise<void>,
      small = 50,
    ): Promise<void> {
      await fc.assert(
        fc.asyncProperty(arb, async (v) => {
          tried++;
          await predicate(v);
        }),
        { numRuns: fuzzRuns(small), seed: fuzzSeed() },
      );
    },
    count(n = 1) {
      tried += n;
    },
  };
}

/** Runs `f`; it may succeed, or fail with a client error of the product's model (4xx, with a message). */
export function succeedsOrRefuses(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    expectClientError(e);
  }
}

export async function succeedsOrRefusesAsync(f: () => Promise<unknown>): Promise<void> {
  try {
    await f();
  } catch (e) {
    expectClientError(e);
  }
}

export function expectClientError(e: unknown): void {
  if (!isGeoError(e)) throw e;
  expect(e.code).toBeGreaterThanOrEqual(400);
  expect(e.code).toBeLessThan(500);
  expect(e.message.length).toBeGreaterThan(0);
}

/** A REST envelope's error, when there is one, is a client error (4xx); `context` names the input. */
export function expectNoServerError(error: { code?: unknown } | undefined, context: string): void {
  if (!error) return;
  const described = `${context} -> ${JSON.stringify(error)}`;
  expect(error.code, described).toBeGreaterThanOrEqual(400);
  expect(error.code, described).toBeLessThan(500);
}
