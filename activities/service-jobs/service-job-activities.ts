/**
 * The steps in the worker of the calculate, truncate and definition change jobs
 * (workflows/service-job.ts). The work runs in one transaction that first locks the job's row and
 * ends by marking it Completed, so an attempt retried after a crash either finds the job done and
 * answers what it stored, or finds nothing of it written and does it all.
 */
import { Context } from '@temporalio/activity';
import type { DatabaseHandle } from '../../db/client.js';
import { mercatorAreas } from '../../db/repositories/cache-refresh-targets.js';
import { inEditTransaction } from '../../db/repositories/feature-edits.js';
import { doLayerWork, type LayerWork } from '../../db/repositories/layer-work.js';
import { completeJobIn, findJob, finishJob, lockJob } from '../../db/repositories/service-jobs.js';
import { findService } from '../../db/repositories/services.js';
import { refreshableCachesOfSource } from '../../db/repositories/tile-caches.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { internalError } from '../../lib/errors.js';
import { storageSpatialReference } from '../../lib/query/hosted-layer-catalog.js';
import type {
  ServiceJobDone,
  ServiceJobFailure,
  ServiceJobInput,
} from '../../workflows/service-job-messages.js';
import { withFailureMapping } from '../publish/activity-errors.js';

export interface ServiceJobDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
}

export function createServiceJobActivities(deps: ServiceJobDeps) {
  return withFailureMapping({
    async runServiceJob(input: ServiceJobInput): Promise<ServiceJobDone> {
      return runServiceJob(deps, input);
    },

    /** Ends a job the workflow could not finish; a job already ended keeps its outcome. */
    async failServiceJob({ jobId, error }: ServiceJobFailure): Promise<void> {
      await finishJob(deps.database.db, jobId, { status: 'Failed', error }, deps.now());
    },
  });
}

export type ServiceJobActivities = ReturnType<typeof createServiceJobActivities>;

/** The job's work, fenced by its row; exported for the test that runs one attempt twice. */
export async function runServiceJob(
  { database, store, now }: ServiceJobDeps,
  { jobId }: ServiceJobInput,
): Promise<ServiceJobDone> {
  const db = database.db;
  // The work the request recorded with the job (it never changes); read before the transaction, as
  // the embedded database serves one statement stream at a time.
  const recorded = await findJob(db, jobId);
  if (!recorded) throw internalError('Unable to complete operation.', [`Job ${jobId} has no state.`]);
  const work = recorded.work as LayerWork | null;
  const service = await findService(db, recorded.serviceItemId);
  const storage = storageSpatialReference(service ?? { definition: {} });
  const caches = await refreshableCachesOfSource(db, recorded.serviceItemId);
  const outcome = await inEditTransaction(database, async (tx) => {
    const job = await lockJob(tx, jobId);
    if (!job) throw internalError('Unable to complete operation.', [`Job ${jobId} has no state.`]);
    // Fenced: an earlier attempt committed the work (or the job ended otherwise).
    if (job.status !== 'Executing')
      return { answer: job.result ?? {}, status: job.status, areas: job.refreshAreas ?? [], removedKeys: [] };
    if (!work) throw internalError('Unable to complete operation.', [`Job ${jobId} records no work.`]);
    const done = await doLayerWork(tx, work);
    const areas = mercatorAreas(done.areas, storage);
    await completeJobIn(tx, jobId, done.answer, areas, now());
    return { ...done, status: 'Completed' as const, areas };
  });
  for (const key of outcome.removedKeys)
    await store.remove(key).catch((e: unknown) => warn('attachment file could not be removed', key, e));
  return { answer: { ...outcome.answer, status: outcome.status }, caches, areas: outcome.areas };
}

/** A file left behind is no failure of the committed job: logged where an activity runs. */
function warn(message: string, key: string, e: unknown): void {
  try {
    Context.current().log.warn(message, { key, error: String(e) });
  } catch {
    // Outside an activity (a test calling the step directly): nothing to log to.
  }
}
