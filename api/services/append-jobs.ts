/**
 * The state of asynchronous append jobs, one JSON object per job in the object store, and the status
 * resource `FeatureServer/jobs/{jobId}` that reports it to the submitter (or an administrator).
 */
import type { Context } from 'hono';
import type { ObjectStore } from '../../infra/object-store.js';
import { type ErrorBody, forbidden, notFound } from '../../lib/errors.js';
import type { AppEnv } from '../env.js';
import { format, sendJson } from '../render.js';
import { requestService } from './request-layer.js';

export interface AppendJob {
  jobId: string;
  serviceItemId: string;
  layerId: number;
  submitter: string;
  submissionTime: number;
  lastUpdatedTime: number;
  status: 'Executing' | 'Completed' | 'Failed';
  recordCount?: number;
  skippedCount?: number;
  addResults?: unknown[];
  updateResults?: unknown[];
  error?: ErrorBody;
}

const JOB_ID = /^[0-9a-f]{32}$/;
const jobKey = (jobId: string) => `append/${jobId}/status.json`;

export async function writeAppendJob(store: ObjectStore, job: AppendJob): Promise<void> {
  const body = Buffer.from(JSON.stringify(job), 'utf8');
  await store.put(jobKey(job.jobId), body, body.length, 'application/json');
}

export async function readAppendJob(store: ObjectStore, jobId: string): Promise<AppendJob | undefined> {
  if (!JOB_ID.test(jobId)) return undefined;
  try {
    return JSON.parse((await store.getBuffer(jobKey(jobId))).toString('utf8')) as AppendJob;
  } catch {
    return undefined;
  }
}

export async function sendAppendJob(c: Context<AppEnv>) {
  format(c, ['json', 'pjson']);
  const service = requestService(c);
  const job = await readAppendJob(c.get('deps').store, c.req.param('jobId') ?? '');
  if (!job || job.serviceItemId !== service.serviceItemId) throw notFound('Job does not exist.');
  const user = c.get('user');
  if (!user || (user.username !== job.submitter && user.role !== 'org_admin')) throw forbidden();
  const { serviceItemId: _s, submitter: _u, ...shown } = job;
  return sendJson(c, shown);
}
