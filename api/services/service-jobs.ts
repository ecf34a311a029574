/**
 * Jobs of the FeatureServer operations a client may ask to run asynchronously (append, calculate,
 * truncate, the admin API's definition changes): the request is checked and answered with a statusUrl;
 * the job's state is a row of `service_jobs`, reported by `FeatureServer/jobs/{jobId}` to the submitter
 * (or an administrator). Every job runs as a Temporal workflow in the worker (append's own, and one
 * service job workflow for the others), which writes the job's outcome in the transaction that does
 * its work; while its row says Executing, the workflow is asked, so a workflow that ended without
 * writing (terminated, timed out, never started) reads as Failed. Without async the same work runs
 * in the request (append excepted: it always runs in the worker).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { inEditTransaction } from '../../db/repositories/feature-edits.js';
import { doLayerWork, type LayerWork } from '../../db/repositories/layer-work.js';
import { findJob, finishJob, insertJob, type ServiceJobRow } from '../../db/repositories/service-jobs.js';
import type { HostedServiceRow } from '../../db/repositories/services.js';
import { type ErrorBody, forbidden, notFound, toGeoError } from '../../lib/errors.js';
import { appendWorkflowId } from '../../workflows/append-messages.js';
import type { serviceJobWorkflow } from '../../workflows/service-job.js';
import {
  isServiceJobOperation,
  jobFailure,
  SERVICE_JOB_WORKFLOW,
  type ServiceJobOperation,
  serviceJobWorkflowId,
} from '../../workflows/service-job-messages.js';
import type { AppDeps, AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { servicesUrl } from '../urls.js';
import { refreshCachesAfterEdit } from './cache-refresh.js';
import { requestService } from './request-layer.js';

const JOB_ID = /^[0-9a-f]{32}$/;

export const newJobId = (): string => randomUUID().replaceAll('-', '');

export const statusUrlOf = (c: Context<AppEnv>, service: HostedServiceRow, jobId: string): string =>
  `${servicesUrl(c)}/Hosted/${service.name}/FeatureServer/jobs/${jobId}`;

/** Records a new Executing job of the request's user. */
export async function createJob(
  c: Context<AppEnv>,
  service: HostedServiceRow,
  operation: string,
  jobId: string,
  work?: LayerWork,
): Promise<number> {
  const deps = c.get('deps');
  const submissionTime = deps.now();
  await insertJob(deps.database.db, {
    jobId,
    operation,
    serviceItemId: service.serviceItemId,
    submitter: c.get('user')?.username ?? '',
    submissionTime,
    ...(work ? { work } : {}),
  });
  return submissionTime;
}

/**
 * Answers a whole-layer change the request has checked and described as `work`: done now, or with
 * async=true started as a job in the worker (workflows/service-job.ts) and answered with its statusUrl.
 */
export async function answerLayerWork(
  c: Context<AppEnv>,
  service: HostedServiceRow,
  operation: ServiceJobOperation,
  work: LayerWork,
  async: boolean,
) {
  const deps = c.get('deps');
  if (!async) return sendJson(c, await doLayerWorkNow(deps, work));
  const jobId = newJobId();
  await createJob(c, service, operation, jobId, work);
  try {
    const client = await deps.temporal();
    await client.workflow.start<typeof serviceJobWorkflow>(SERVICE_JOB_WORKFLOW, {
      taskQueue: deps.config.temporal.taskQueue,
      workflowId: serviceJobWorkflowId(operation, jobId),
      args: [{ jobId, operation }],
      memo: { serviceItemId: service.serviceItemId, reason: operation },
    });
  } catch (e) {
    await finishJob(deps.database.db, jobId, { status: 'Failed', error: toGeoError(e).toBody() }, deps.now());
    throw e;
  }
  return sendJson(c, { statusUrl: statusUrlOf(c, service, jobId) });
}

/** The synchronous path: the work's transaction, then what follows its commit. */
async function doLayerWorkNow(deps: AppDeps, work: LayerWork): Promise<Record<string, unknown>> {
  const done = await inEditTransaction(deps.database, (tx) => doLayerWork(tx, work));
  for (const key of done.removedKeys)
    await deps.store
      .remove(key)
      .catch((e: unknown) =>
        deps.log.warn('attachment file could not be removed', { key, error: String(e) }),
      );
  await refreshCachesAfterEdit(deps, work.serviceItemId, done.areas);
  return done.answer;
}

export async function sendServiceJob(c: Context<AppEnv>) {
  format(c, ['json', 'pjson']);
  const service = requestService(c);
  const deps = c.get('deps');
  const jobId = c.req.param('jobId') ?? '';
  const job = JOB_ID.test(jobId) ? await findJob(deps.database.db, jobId) : undefined;
  if (!job || job.serviceItemId !== service.serviceItemId) throw notFound('Job does not exist.');
  const user = c.get('user');
  if (!user || (user.username !== job.submitter && user.role !== 'org_admin')) throw forbidden();
  const shown = await shownJob(deps, job);
  // The job may have changed the service from another process (or after this request's own write):
  // a client reading the service after seeing the job end gets what the job left.
  if (shown.status !== 'Executing') c.get('lookups').forgetService(service.serviceItemId);
  return sendJson(c, shown);
}

/** The job as its status resource shows it: ids, times, status, the operation's answer, the error. */
async function shownJob(deps: AppDeps, job: ServiceJobRow): Promise<Record<string, unknown>> {
  if (job.status !== 'Executing') return rowShown(job);
  const workflow = workflowOf(job);
  const ended = workflow && (await endedWithoutState(deps, workflow.id));
  if (!ended) return rowShown(job);
  // The workflow may have written the outcome between the read above and its end.
  const again = await findJob(deps.database.db, job.jobId);
  if (again && again.status !== 'Executing') return rowShown(again);
  return { ...rowShown(job), status: 'Failed', error: workflow.failure(ended) };
}

const rowShown = (job: ServiceJobRow): Record<string, unknown> => ({
  jobId: job.jobId,
  operation: job.operation,
  submissionTime: job.submissionTime,
  lastUpdatedTime: job.lastUpdatedTime,
  ...((job.result as Record<string, unknown> | null) ?? {}),
  status: job.status,
  ...(job.error ? { error: job.error } : {}),
});

/** The workflow that does the job, and the error of a job whose workflow ended without a word. */
function workflowOf(job: ServiceJobRow): { id: string; failure: (why: string) => ErrorBody } | null {
  const { operation, jobId } = job;
  if (operation === 'append')
    return {
      id: appendWorkflowId(jobId),
      failure: (why) => ({ code: 500, message: 'Unable to append.', details: [`The append job ${why}.`] }),
    };
  if (isServiceJobOperation(operation))
    return { id: serviceJobWorkflowId(operation, jobId), failure: (why) => jobFailure(operation, why) };
  return null;
}

/** How the job's workflow ended when it did without writing the job's state, else null. */
async function endedWithoutState(deps: AppDeps, workflowId: string): Promise<string | null> {
  try {
    const description = await (await deps.temporal()).workflow.getHandle(workflowId).describe();
    const status = description.status.name;
    if (status === 'RUNNING' || status === 'COMPLETED' || status === 'CONTINUED_AS_NEW') return null;
    return `was ${status.toLowerCase().replaceAll('_', ' ')}`;
  } catch (e) {
    // Not found: the start never reached Temporal (the row is written first), so it never runs.
    if ((e as { name?: string }).name === 'WorkflowNotFoundError') return 'never started';
    return null;
  }
}
