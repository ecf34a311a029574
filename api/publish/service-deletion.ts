/**
 * When a hosted Feature Service item is deleted, its service goes too: a running publish job is
 * stopped, the feature tables dropped, the service and layer rows and the job's objects removed.
 */

import { dropFeatureTable } from '../../db/repositories/feature-tables.js';
import type { ItemRow } from '../../db/repositories/items.js';
import { jobsForItem, type PublishJobRow } from '../../db/repositories/jobs.js';
import { deleteService, findService, listLayers } from '../../db/repositories/services.js';
import { publishJobPrefix } from '../../infra/object-keys.js';
import type { AppDeps } from '../env.js';

/** Terminates the item's running jobs; returns all its jobs. Closed workflows or a down Temporal are no obstacle. */
export async function stopRunningJobs(deps: AppDeps, itemId: string): Promise<PublishJobRow[]> {
  const jobs = await jobsForItem(deps.database.db, itemId);
  for (const job of jobs.filter((j) => j.status === 'processing')) {
    try {
      const client = await deps.temporal();
      await client.workflow.getHandle(job.workflowId).terminate('The service item was deleted.');
    } catch {
      // Already closed, or Temporal is down: what the job wrote is removed by the caller either way.
    }
  }
  return jobs;
}

export async function deleteHostedService(item: ItemRow, deps: AppDeps): Promise<void> {
  if (item.type !== 'Feature Service') return;
  const db = deps.database.db;
  const jobs = await stopRunningJobs(deps, item.id);
  if (!(await findService(db, item.id))) return;
  const tables = new Set((await listLayers(db, item.id)).map((l) => l.tableName));
  for (const job of jobs) for (const l of job.plan?.layers ?? []) tables.add(l.tableName);
  for (const table of tables) await dropFeatureTable(deps.database, table);
  await deleteService(db, item.id);
  for (const job of jobs) await deps.store.removePrefix(publishJobPrefix(job.id));
}
