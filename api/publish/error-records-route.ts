/**
 * content/users/{u}/items/{serviceItemId}/errorRecords?jobId=&layer=&start=&num=: the rows a publish
 * job could not load (bad coordinates, unparseable values, addresses not found) and why, kept when the
 * publisher asked for persistErrorRecordsForReview. Pages follow the portal's convention (1-based
 * `start`, `num` up to 100, `nextStart` -1 on the last page). Only the job's owner and administrators
 * read them.
 */
import type { Context } from 'hono';
import { errorRecordPage } from '../../db/repositories/error-records.js';
import { findJob, latestJobForItem } from '../../db/repositories/jobs.js';
import { normalizeItemId } from '../../lib/access/items.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest, forbidden, itemNotFound } from '../../lib/errors.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';

const MAX_NUM = 100;

function wholeNumber(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,9}$/.test(value) || Number(value) < min)
    throw badRequest('Invalid parameter.', [`'${name}' must be a whole number of at least ${min}.`]);
  return Number(value);
}

export async function errorRecords(c: Context<AppEnv>) {
  const user = requireUser(c);
  const { db } = c.get('deps').database;
  const params = c.get('params');
  const itemId = normalizeItemId(c.req.param('itemId') ?? '');
  const jobId = params.get('jobId');
  const job = jobId ? await findJob(db, jobId) : await latestJobForItem(db, itemId);
  if (!job || job.serviceItemId !== itemId) throw itemNotFound();
  if (job.owner !== user.username && !isAdmin(user)) throw forbidden();
  const layerId = wholeNumber(params.get('layer'), 'layer', 0, 0);
  const start = wholeNumber(params.get('start'), 'start', 1, 1);
  const num = Math.min(wholeNumber(params.get('num'), 'num', 10, 0), MAX_NUM);
  const layer = job.plan?.layers.find((l) => l.id === layerId);
  if (job.plan && !layer) throw badRequest('Invalid parameter.', [`The job has no layer ${layerId}.`]);
  const { total, records } = await errorRecordPage(db, job.id, layerId, start - 1, num);
  // The source's values under the names the layer gave them, where the layer kept the column.
  const named = (record: unknown[]) =>
    Object.fromEntries((layer?.fields ?? []).map((f) => [f.name, record[f.sourceIndex] ?? null]));
  const next = start + records.length;
  return {
    jobId: job.id,
    itemId,
    layerId,
    persisted: job.request.persistErrorRecordsForReview,
    total,
    start,
    num: records.length,
    nextStart: next <= total && records.length > 0 ? next : -1,
    errorRecords: records.map((r) => ({
      rowNumber: r.rowNumber,
      reason: r.reason,
      attributes: named(r.record),
      values: r.record,
    })),
  };
}
