/**
 * publish with overwrite=true: re-publishes a source item into the service published from it before
 * (found through its Service2Data relationship). The service keeps its name, item id and URL; the
 * workflow loads the new data beside the old tables and swaps them in at the end, then rebuilds the
 * caches drawn from the service. Only the service's owner or an administrator may overwrite it.
 */

import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { findItem, relationshipsOf } from '../../db/repositories/items.js';
import { insertJob, latestJobForItem } from '../../db/repositories/jobs.js';
import { findService, type HostedServiceRow } from '../../db/repositories/services.js';
import type { PublishRequest } from '../../db/schema/publish-request.js';
import { publishSourceKey } from '../../infra/object-keys.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest, forbidden, itemNotFound } from '../../lib/errors.js';
import { publishWorkflowId } from '../../workflows/messages.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { servicesUrl } from '../urls.js';
import { parseFileType, parseJsonParameter, parsePublishParameters } from './publish-parameters.js';
import { checkSourceSize, impliedFileType, resolveSource, storeSource } from './publish-source.js';
import { startWorkflow } from './publish-workflow-start.js';

const refuse = (detail: string) => badRequest('Unable to overwrite the service.', [detail]);

/** The hosted service published from `sourceItemId`; the one named in publishParameters if several. */
async function servicePublishedFrom(
  c: Context<AppEnv>,
  sourceItemId: string,
  wantedName: string | undefined,
): Promise<HostedServiceRow | undefined> {
  const db = c.get('deps').database.db;
  const ids = (await relationshipsOf(db, sourceItemId))
    .filter((r) => r.relationshipType === 'Service2Data' && r.destinationItemId === sourceItemId)
    .map((r) => r.originItemId);
  const services: HostedServiceRow[] = [];
  for (const id of ids) {
    const s = await findService(db, id);
    if (s) services.push(s);
  }
  const named = wantedName && services.find((s) => s.name.toLowerCase() === wantedName.toLowerCase());
  return named || services.sort((a, b) => b.created - a.created)[0];
}

export async function overwriteService(c: Context<AppEnv>) {
  const user = requireUser(c);
  const deps = c.get('deps');
  const db = deps.database.db;
  const params = c.get('params');
  const sourceItemId = params.get('itemid')?.toLowerCase();
  if (!sourceItemId)
    throw badRequest('Invalid or missing input parameters.', [
      "overwrite needs 'itemid': the source item the service was published from.",
    ]);
  if (!(await findItem(db, sourceItemId))) throw itemNotFound();
  const parameters = parseJsonParameter('publishParameters', params.get('publishParameters'), true);
  const wantedName = typeof parameters.name === 'string' ? parameters.name : undefined;
  const service = await servicePublishedFrom(c, sourceItemId, wantedName);
  if (!service)
    throw refuse(`No service was published from item ${sourceItemId}; publish it without overwrite first.`);
  const serviceItem = await findItem(db, service.serviceItemId);
  if (!serviceItem) throw refuse(`The service published from item ${sourceItemId} has no item.`);
  if (serviceItem.owner !== user.username && !isAdmin(user)) throw forbidden();
  const running = await latestJobForItem(db, service.serviceItemId);
  if (service.status !== 'ready' || running?.status === 'processing')
    throw refuse(`Service '${service.name}' is being published; wait for that job to finish.`);

  const rawType = params.get('filetype');
  const source = await resolveSource(db, params, user, rawType ? parseFileType(rawType) : null);
  const fileType = parseFileType(rawType ?? impliedFileType(source));
  checkSourceSize(fileType, source, deps.config.sqliteMaxBytes);
  // The service keeps its name whatever the parameters say.
  const checked = parsePublishParameters({
    fileType,
    parameters: { ...parameters, name: service.name },
    buildInitialCache: false,
    outputType: params.get('outputType') ?? '',
  });
  const jobId = randomUUID();
  const sourceKey = publishSourceKey(jobId);
  await storeSource(deps.store, source, sourceKey);
  const request: PublishRequest = { ...checked, sourceKey, sourceSize: source.size, overwrite: true };
  const now = deps.now();
  const job = await insertJob(db, {
    id: jobId,
    serviceItemId: service.serviceItemId,
    sourceItemId,
    owner: serviceItem.owner,
    fileType,
    workflowId: publishWorkflowId(jobId),
    status: 'processing',
    statusMessage: 'processing',
    request,
    created: now,
    modified: now,
  });
  await startWorkflow(c, job, undefined, true);
  const base = `${servicesUrl(c)}/Hosted`;
  return {
    services: [
      {
        type: 'Feature Service',
        serviceurl: `${base}/${service.name}/FeatureServer`,
        encodedServiceURL: `${base}/${encodeURIComponent(service.name)}/FeatureServer`,
        size: source.size,
        jobId,
        serviceItemId: service.serviceItemId,
      },
    ],
  };
}
