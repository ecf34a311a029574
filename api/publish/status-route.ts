/**
 * content/users/{u}/items/{serviceItemId}/status: the job's state from the database (the workflow
 * writes its outcome there), with live counts from the workflow's progress query while it runs, and
 * `warnings`: one message for each thing of the source the publish leaves out (a file geodatabase's
 * relationship classes it cannot publish), from the job's plan, so while it runs and once it ended.
 */
import type { Context } from 'hono';
import { findUpload } from '../../db/repositories/item-uploads.js';
import { findItem } from '../../db/repositories/items.js';
import { type JobWatch, watchJob } from '../../db/repositories/job-notifications.js';
import { findJob, latestJobForItem } from '../../db/repositories/jobs.js';
import { normalizeItemId } from '../../lib/access/items.js';
import { isAdmin } from '../../lib/access/roles.js';
import { forbidden } from '../../lib/errors.js';
import { type PublishProgress, publishProgressQuery } from '../../workflows/messages.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';

export async function itemStatus(c: Context<AppEnv>) {
  const user = requireUser(c);
  const deps = c.get('deps');
  const itemId = normalizeItemId(c.req.param('itemId') ?? '');
  const params = c.get('params');
  const jobId = params.get('jobId');
  // Listening before the job is read: an end committed after that read is heard, not missed.
  const watch = jobId ? await watchJob(deps.database, jobId).catch(() => undefined) : undefined;
  try {
    return await statusOf(c, user, itemId, jobId, watch);
  } finally {
    watch?.close();
  }
}

async function statusOf(
  c: Context<AppEnv>,
  user: ReturnType<typeof requireUser>,
  itemId: string,
  jobId: string | undefined,
  watch: JobWatch | undefined,
) {
  const deps = c.get('deps');
  let job = jobId ? await findJob(deps.database.db, jobId) : await latestJobForItem(deps.database.db, itemId);
  // Without a job id, an item's upload in parts (addItem with multipart=true) answers: partial, then completed.
  const upload = jobId ? undefined : await findUpload(deps.database.db, itemId);
  if (upload && (!job || upload.status === 'partial')) {
    const item = await findItem(deps.database.db, itemId);
    if (!item || (item.owner !== user.username && !isAdmin(user))) throw forbidden();
    return { status: upload.status, statusMessage: upload.status, itemId };
  }
  if (!job || job.serviceItemId !== itemId) {
    return { status: '', statusMessage: "Item status doesn't exist", itemId };
  }
  if (job.owner !== user.username && !isAdmin(user)) throw forbidden();
  // A job in its first second (a small publish ends within it) is waited for until then, so the
  // caller learns the outcome when it happens rather than at its next poll.
  const left = QUERY_AFTER_MS - (deps.now() - job.created);
  if (job.status === 'processing' && watch && left > 0 && (await watch.ended(left)))
    job = (await findJob(deps.database.db, job.id)) ?? job;
  // What the publish leaves out of the source (relationship classes it cannot carry), once planned.
  const warnings = job.plan?.warnings ?? [];
  const base = {
    itemId,
    jobId: job.id,
    jobType: job.jobType,
    lastUpdated: job.modified,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  const counts = job.progress as Record<string, unknown>;
  if (job.status !== 'processing') {
    // An overwrite's worker changed the service: whoever followed the job reads what it left.
    c.get('lookups').forgetService(itemId);
    return { status: job.status, statusMessage: job.statusMessage, ...base, ...counts };
  }
  // A job younger than QUERY_AFTER_MS answers from the database alone: a small publish completes
  // within it, and a client polling it every 50 ms should not wait on Temporal for each poll.
  const age = deps.now() - job.created;
  const live = age < QUERY_AFTER_MS ? {} : await workflowState(c, job.workflowId);
  if (live.closedWithoutOutcome) {
    const statusMessage = JSON.stringify({
      code: 500,
      message: `The publishing job ended (${live.closedWithoutOutcome}) before it finished.`,
    });
    return { status: 'failed', statusMessage, ...base, ...counts };
  }
  const cacheJob = live.progress?.cacheJobId
    ? await findJob(deps.database.db, live.progress.cacheJobId)
    : undefined;
  return {
    status: 'processing',
    statusMessage: 'processing',
    ...base,
    ...counts,
    ...(live.progress ? progressCounts(live.progress, counts) : {}),
    // buildInitialCache: the cache's bundles and tiles so far, as its own Map Service job counts them.
    ...(cacheJob
      ? { cache: { jobId: cacheJob.id, serviceItemId: cacheJob.serviceItemId, ...cacheJob.progress } }
      : {}),
  };
}

/**
 * The live counts. The load writes its own layer's counts to the job row every second (`stored`:
 * `layerId`, `rowsRead`, `rowsLoaded`, `rowsRejected`); the workflow knows a layer's counts once its
 * load has returned. Each layer shows the further of the two, and the job's counts are the layers' sums,
 * so they never mix one layer's stored counts with the sums (rowsLoaded past rowsRead) and never fall
 * back to the row's last second once the workflow knows more.
 */
export function progressCounts(p: PublishProgress, stored: Record<string, unknown>) {
  const at = typeof stored.layerId === 'number' ? stored.layerId : undefined;
  const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const layers = p.layers.map((l) =>
    l.layerId === at && count(stored.rowsRead) > l.rowsRead
      ? {
          ...l,
          rowsRead: count(stored.rowsRead),
          rowsLoaded: count(stored.rowsLoaded),
          rowsRejected: count(stored.rowsRejected),
        }
      : l,
  );
  const sum = (k: 'rowsRead' | 'rowsLoaded' | 'rowsRejected') => layers.reduce((n, l) => n + l[k], 0);
  return {
    phase: p.phase,
    layersTotal: p.layersTotal,
    layersDone: p.layersDone,
    layers,
    ...(layers.length > 0
      ? { rowsRead: sum('rowsRead'), rowsLoaded: sum('rowsLoaded'), rowsRejected: sum('rowsRejected') }
      : {}),
  };
}

/**
 * Live counts come from the workflow's progress query, which goes through the worker and waits for
 * the workflow task it may be running (a small publish runs whole inside one). A job younger than
 * `QUERY_AFTER_MS` has no counts worth that wait and is not asked about at all (a workflow terminated
 * in its first second shows as failed once the job is that old); an older one's query gets at most
 * `QUERY_WAIT_MS`; without it the status answers from the database, whose counts the load updates
 * every second.
 */
const QUERY_AFTER_MS = 1000;
const QUERY_WAIT_MS = 500;

async function workflowState(
  c: Context<AppEnv>,
  workflowId: string,
): Promise<{ progress?: PublishProgress; closedWithoutOutcome?: string }> {
  try {
    const client = await c.get('deps').temporal();
    const handle = client.workflow.getHandle(workflowId);
    // Asked at once with the description, which the server answers alone.
    const progress = client
      .withDeadline(Date.now() + QUERY_WAIT_MS, () => handle.query(publishProgressQuery))
      .catch(() => undefined);
    const description = await handle.describe();
    const status = description.status.name;
    if (status === 'TERMINATED' || status === 'CANCELLED' || status === 'TIMED_OUT')
      return { closedWithoutOutcome: status.toLowerCase() };
    if (status !== 'RUNNING') return {};
    const live = await progress;
    return live ? { progress: live } : {};
  } catch {
    // Temporal unreachable: the database state still stands.
    return {};
  }
}
