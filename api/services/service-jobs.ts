/**
 * Jobs of the FeatureServer operations a client may ask to run asynchronously (append, calculate,
 * truncate, the admin API's definition changes): the request is checked and answered with a statusUrl;
 * the job's state is a row of `service_jobs`, reported by `FeatureServer/jobs/{jobId}` to the submitter
 * (or an administrator). append runs as a Temporal workflow in the worker, which writes its outcome in
 * the transaction that applies it; while its row says Executing, the workflow is asked, so a workflow
 * that ended without writing (terminated, timed out) reads as Failed. The other operations run on in
 * the API process that took the request (see README, Known gaps).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { findJob, finishJob, insertJob, type ServiceJobRow } from '../../db/repositories/service-jobs.js';
import type { HostedServiceRow } from '../../db/repositories/services.js';
import { type ErrorBody, forbidden, type GeoError, notFound, toGeoError } from '../../lib/errors.js';
import { appendWorkflowId } from '../../workflows/append-messages.js';
import type { AppDeps, AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { servicesUrl } from '../urls.js';
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
): Promise<number> {
  const deps = c.get('deps');
  const submissionTime = deps.now();
  await insertJob(deps.database.db, {
    jobId,
    operation,
    serviceItemId: service.serviceItemId,
    submitter: c.get('user')?.username ?? '',
    submissionTime,
  });
  return submissionTime;
}

/**
 * Answers `{statusUrl}` and runs `work` on in this process. Its answer becomes the job's state (a
 * `status` in it wins); a thrown error becomes status Failed with the error.
 */
export async function answerAsJob(
  c: Context<AppEnv>,
  service: HostedServiceRow,
  operation: string,
  work: () => Promise<Record<string, unknown>>,
  errorOf: (e: unknown) => GeoError = toGeoError,
) {
  const deps = c.get('deps');
  const db = deps.database.db;
  const jobId = newJobId();
  await createJob(c, service, operation, jobId);
  void work()
    .then((result) => {
      const { status, ...rest } = result;
      return status === 'Failed'
        ? finishJob(db, jobId, { status: 'Failed', error: failedError(rest), result: rest }, deps.now())
        : finishJob(db, jobId, { status: 'Completed', result: rest }, deps.now());
    })
    .catch((e: unknown) => finishJob(db, jobId, { status: 'Failed', error: errorOf(e).toBody() }, deps.now()))
    .catch((e: unknown) => deps.log.error('job state could not be written', { jobId, error: String(e) }));
  return sendJson(c, { statusUrl: statusUrlOf(c, service, jobId) });
}

const failedError = (result: Record<string, unknown>): ErrorBody =>
  (result.error as ErrorBody | undefined) ?? {
    code: 400,
    message: 'Unable to complete operation.',
    details: [],
  };

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
  const shown: Record<string, unknown> = {
    jobId: job.jobId,
    operation: job.operation,
    submissionTime: job.submissionTime,
    lastUpdatedTime: job.lastUpdatedTime,
    ...((job.result as Record<string, unknown> | null) ?? {}),
    status: job.status,
    ...(job.error ? { error: job.error } : {}),
  };
  if (job.status !== 'Executing' || job.operation !== 'append') return shown;
  const ended = await endedWithoutState(deps, appendWorkflowId(job.jobId));
  if (!ended) return shown;
  return {
    ...shown,
    status: 'Failed',
    error: { code: 500, message: 'Unable to append.', details: [`The append job ${ended}.`] },
  };
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
