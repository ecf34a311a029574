/**
 * Jobs of the FeatureServer operations a client may ask to run asynchronously (append, calculate,
 * truncate, the admin API's definition changes): the request is checked, answered with a statusUrl,
 * and the work runs on in this process; its state is one JSON object per job in the object store,
 * reported by `FeatureServer/jobs/{jobId}` to the submitter (or an administrator).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { HostedServiceRow } from '../../db/repositories/services.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { type ErrorBody, forbidden, type GeoError, notFound, toGeoError } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { servicesUrl } from '../urls.js';
import { requestService } from './request-layer.js';

export interface ServiceJob {
  jobId: string;
  operation: string;
  serviceItemId: string;
  submitter: string;
  submissionTime: number;
  lastUpdatedTime: number;
  status: 'Executing' | 'Completed' | 'Failed';
  error?: ErrorBody;
  /** The operation's own answer (success, counts, per-row results). */
  [result: string]: unknown;
}

const JOB_ID = /^[0-9a-f]{32}$/;
const jobKey = (jobId: string) => `service-jobs/${jobId}.json`;

async function writeJob(store: ObjectStore, job: ServiceJob): Promise<void> {
  const body = Buffer.from(JSON.stringify(job), 'utf8');
  await store.put(jobKey(job.jobId), body, body.length, 'application/json');
}

async function readJob(store: ObjectStore, jobId: string): Promise<ServiceJob | undefined> {
  if (!JOB_ID.test(jobId)) return undefined;
  try {
    return JSON.parse((await store.getBuffer(jobKey(jobId))).toString('utf8')) as ServiceJob;
  } catch {
    return undefined;
  }
}

/**
 * Answers `{statusUrl}` and runs `work` on. Its answer becomes the job's state (a `status` in it wins,
 * as append's Failed after a rollback); a thrown error becomes status Failed with the error.
 */
export async function answerAsJob(
  c: Context<AppEnv>,
  service: HostedServiceRow,
  operation: string,
  work: () => Promise<Record<string, unknown>>,
  errorOf: (e: unknown) => GeoError = toGeoError,
) {
  const deps = c.get('deps');
  const jobId = randomUUID().replaceAll('-', '');
  const submissionTime = deps.now();
  const job: ServiceJob = {
    jobId,
    operation,
    serviceItemId: service.serviceItemId,
    submitter: c.get('user')?.username ?? '',
    submissionTime,
    lastUpdatedTime: submissionTime,
    status: 'Executing',
  };
  await writeJob(deps.store, job);
  void work()
    .then((result) =>
      writeJob(deps.store, { ...job, status: 'Completed', ...result, lastUpdatedTime: deps.now() }),
    )
    .catch((e: unknown) =>
      writeJob(deps.store, {
        ...job,
        status: 'Failed',
        lastUpdatedTime: deps.now(),
        error: errorOf(e).toBody(),
      }),
    )
    .catch((e: unknown) => deps.log.error('job state could not be written', { jobId, error: String(e) }));
  return sendJson(c, { statusUrl: `${servicesUrl(c)}/Hosted/${service.name}/FeatureServer/jobs/${jobId}` });
}

export async function sendServiceJob(c: Context<AppEnv>) {
  format(c, ['json', 'pjson']);
  const service = requestService(c);
  const job = await readJob(c.get('deps').store, c.req.param('jobId') ?? '');
  if (!job || job.serviceItemId !== service.serviceItemId) throw notFound('Job does not exist.');
  const user = c.get('user');
  if (!user || (user.username !== job.submitter && user.role !== 'org_admin')) throw forbidden();
  const { serviceItemId: _s, submitter: _u, ...shown } = job;
  return sendJson(c, shown);
}
