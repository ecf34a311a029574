/**
 * Whole-file parsing off the caller's event loop: a zipped shapefile is unzipped under its archive budget
 * and parsed by shpjs in a worker thread with a heap cap and a deadline, so a hostile or huge file can
 * neither stall the API's other requests nor exhaust its process.
 */
import { Worker } from 'node:worker_threads';
import { threadEntry } from '../../infra/thread-bundles.js';
import { badRequest, type ErrorBody, GeoError } from '../../lib/errors.js';
import { type ArchiveBudget, DEFAULT_ARCHIVE_BUDGET } from '../../lib/ingest/archive-budget.js';
import type { FeatureTable } from './feature-source.js';

/** Limits of whole-file parsing, from the configuration (PARSE_MAX_HEAP_MB, PARSE_TIMEOUT_SECONDS, ARCHIVE_*). */
export interface ParseLimits {
  archive: ArchiveBudget;
  maxHeapMb: number;
  timeoutMs: number;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = {
  archive: DEFAULT_ARCHIVE_BUDGET,
  maxHeapMb: 1024,
  timeoutMs: 120_000,
};

export interface ParseRequest {
  kind: 'shapefile';
  bytes: Uint8Array;
  budget: ArchiveBudget;
}

export type ParseReply = { ok: true; tables: FeatureTable[] } | { ok: false; error: ErrorBody };

const workerUrl = threadEntry(
  new URL('./parse-work.ts', import.meta.url),
  new URL('./parse-worker.mjs', import.meta.url),
);

/** One table per shapefile in the zip, parsed in a thread of its own. */
export function parseShapefileZip(
  bytes: Uint8Array,
  limits: ParseLimits = DEFAULT_PARSE_LIMITS,
): Promise<FeatureTable[]> {
  const request: ParseRequest = { kind: 'shapefile', bytes, budget: limits.archive };
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl(), {
      workerData: request,
      // The entry registers the TypeScript loader itself; inherited loader flags are not needed.
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: limits.maxHeapMb, maxYoungGenerationSizeMb: 64 },
    });
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      f();
    };
    const fail = (detail: string) =>
      settle(() =>
        reject(badRequest('Unable to read the file.', [`The shapefile could not be read: ${detail}`])),
      );
    const timer = setTimeout(
      () =>
        fail(`reading it took longer than ${Math.round(limits.timeoutMs / 1000)} s (PARSE_TIMEOUT_SECONDS).`),
      limits.timeoutMs,
    );
    worker.once('message', (reply: ParseReply) =>
      settle(() => (reply.ok ? resolve(reply.tables) : reject(new GeoError(reply.error)))),
    );
    worker.once('error', (e) =>
      fail(
        /memory/i.test(e.message)
          ? `it needs more than ${limits.maxHeapMb} MB of memory (PARSE_MAX_HEAP_MB).`
          : e.message,
      ),
    );
    worker.once('exit', (code) => fail(`the reader stopped (exit code ${code}).`));
  });
}
