/**
 * content/features/analyze: the API checks the request and names the source; the analysis itself (the
 * csv's first part, GeoJSON as a stream, the whole workbook, zip or database) runs in the worker as
 * workflows/analyze.ts. An upload or `text` is stored under a temporary key first (a CSV's first 512 KiB
 * only), an item's data is read where it is; the answer comes back through the object store, and every
 * temporary object is removed before the request is answered, whatever the outcome.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Context } from 'hono';
import { analyzeResultKey, analyzeSourceKey } from '../../infra/object-keys.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { badRequest, GeoError, isGeoError } from '../../lib/errors.js';
import { ANALYZE_SAMPLE_BYTES } from '../../lib/ingest/index.js';
import { badInputOf, isTimeoutFailure } from '../../lib/workflow-failures.js';
import { ANALYZE_WORKFLOW, type analyzeWorkflow } from '../../workflows/analyze.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { parseFileType, parseJsonParameter } from './publish-parameters.js';
import { checkSourceSize, impliedFileType, resolveSource, type SourceRef } from './publish-source.js';

/** Beyond the whole-file parse deadline, time for the reads and the queue. */
export const ANALYZE_SLACK_MS = 60_000;

export async function analyze(c: Context<AppEnv>): Promise<Record<string, unknown>> {
  // Analyze prepares a publish, so it takes publishFeatures too: see api/privileges.ts.
  const user = requireUser(c);
  const { database, store, config } = c.get('deps');
  const params = c.get('params');
  const rawType = params.get('filetype');
  const source = await resolveSource(database.db, params, user, rawType ? parseFileType(rawType) : null);
  const fileType = parseFileType(rawType ?? impliedFileType(source));
  checkSourceSize(fileType, source, config.sqliteMaxBytes);
  const options = parseJsonParameter('analyzeParameters', params.get('analyzeParameters'), false);
  const analysisId = randomUUID();
  const resultKey = analyzeResultKey(analysisId);
  const tempKeys = [resultKey];
  const timeoutMs = config.parseLimits.timeoutMs + ANALYZE_SLACK_MS;
  try {
    let sourceKey: string;
    if (source.kind === 'item') {
      sourceKey = source.key;
    } else {
      sourceKey = analyzeSourceKey(analysisId);
      tempKeys.push(sourceKey);
      await storeForAnalysis(
        store,
        source,
        sourceKey,
        fileType === 'csv' ? ANALYZE_SAMPLE_BYTES : source.size,
      );
    }
    const client = await c.get('deps').temporal();
    const handle = await client.workflow.start<typeof analyzeWorkflow>(ANALYZE_WORKFLOW, {
      taskQueue: config.temporal.taskQueue,
      workflowId: `analyze-${analysisId}`,
      workflowExecutionTimeout: timeoutMs + 10_000,
      args: [
        {
          analysis: { sourceKey, size: source.size, name: source.name, fileType, options, resultKey },
          timeoutMs,
        },
      ],
      memo: { owner: user.username, fileType, name: source.name },
    });
    const done = await withDeadline(handle.result(), timeoutMs + 15_000, () =>
      handle.terminate('analyze: the caller stopped waiting').catch(() => {}),
    );
    return JSON.parse((await store.getBuffer(done.resultKey)).toString('utf8')) as Record<string, unknown>;
  } catch (e) {
    throw analyzeFailure(e, timeoutMs);
  } finally {
    await Promise.all(tempKeys.map((key) => store.remove(key).catch(() => {})));
  }
}

/** The upload's (or `text`'s) first `length` bytes under `key`, for the worker to read. */
async function storeForAnalysis(store: ObjectStore, source: SourceRef, key: string, length: number) {
  const n = Math.min(length, source.size);
  if (source.kind === 'text') {
    const bytes = Buffer.from(source.text, 'utf8').subarray(0, n);
    await store.put(key, bytes, bytes.length, 'text/plain; charset=utf-8');
  } else if (source.kind === 'file') {
    await store.put(
      key,
      n === 0 ? Buffer.alloc(0) : createReadStream(source.path, { start: 0, end: n - 1 }),
      n,
    );
  }
}

/** The workflow's failure as the client's error: bad input in the reader's own words, a timeout by name. */
function analyzeFailure(e: unknown, timeoutMs: number): unknown {
  if (isGeoError(e)) return e;
  const bad = badInputOf(e);
  if (bad) return new GeoError(bad);
  if (isTimeoutFailure(e) || e instanceof AnalyzeDeadline)
    return badRequest('Unable to analyze the file.', [
      `The analysis did not finish within ${Math.round(timeoutMs / 1000)} s (PARSE_TIMEOUT_SECONDS + ${ANALYZE_SLACK_MS / 1000} s).`,
    ]);
  return e;
}

class AnalyzeDeadline extends Error {}

/** `promise`, or an AnalyzeDeadline after `ms` (when the workflow's own timeout could not answer). */
async function withDeadline<T>(
  promise: Promise<T>,
  ms: number,
  onTimeout: () => Promise<unknown>,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void onTimeout();
      reject(new AnalyzeDeadline());
    }, ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
