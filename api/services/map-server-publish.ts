/**
 * Publishing a tiled Map Service from an existing hosted feature service (filetype featureService,
 * outputType Tiles): a Map Service item related to the feature service by Service2Service, a tile
 * cache row, a publish job, and the tile publish workflow that builds the cache as its child.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { findItem, insertItem, insertRelationship } from '../../db/repositories/items.js';
import { insertJob, type PublishJobRow } from '../../db/repositories/jobs.js';
import { findService, listLayers } from '../../db/repositories/services.js';
import { findTileCacheByName, insertTileCache } from '../../db/repositories/tile-caches.js';
import type { PublishRequest } from '../../db/schema/publish-request.js';
import { badRequest, forbidden, itemNotFound } from '../../lib/errors.js';
import type { CacheDefinition } from '../../lib/tiles/cache-definition.js';
import { webMercatorCache } from '../../lib/tiles/cache-definition.js';
import {
  TILE_PUBLISH_WORKFLOW,
  type TilePublishInput,
  type TilePublishKind,
  tilePublishWorkflowId,
} from '../../workflows/tile-cache-messages.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { servicesUrl } from '../urls.js';
import { parseTileLevels, parseTileParameters } from './map-server-parameters.js';

const isAdmin = (role: string) => role === 'org_admin' || role === 'account_admin';

/** The file types this module publishes; the publish route hands them over before its own checks. */
export function tilePublishKind(
  filetype: string | undefined,
  outputType: string | undefined,
): TilePublishKind | undefined {
  const f = (filetype ?? '').trim().toLowerCase();
  if (f === 'featureservice' || (f === 'service' && (outputType ?? '').toLowerCase() === 'tiles'))
    return 'featureService';
  if (f === 'tilepackage' || f === 'compacttilepackage') return 'tilePackage';
  if (f === 'vectortilepackage') return 'vectorTilePackage';
  return undefined;
}

export interface TilePublishResponse {
  services: { type: string; serviceurl: string; jobId: string; serviceItemId: string }[];
}

/** Publishes a Map Service with a tile cache from a hosted feature service item. */
export async function publishTilesFromFeatureService(c: Context<AppEnv>): Promise<TilePublishResponse> {
  const user = requireUser(c);
  const deps = c.get('deps');
  const db = deps.database.db;
  const params = c.get('params');
  const sourceId = params.get('itemid') ?? '';
  const source = sourceId ? await findItem(db, sourceId) : undefined;
  if (!source) throw itemNotFound();
  if (source.owner !== user.username && !isAdmin(user.role)) throw forbidden();
  const service = await findService(db, sourceId);
  if (source.type !== 'Feature Service' || service?.status !== 'ready') {
    throw badRequest('Unable to publish.', [
      `Item ${sourceId} is not a hosted feature service that is ready.`,
    ]);
  }
  const parameters = parseTileParameters(params.get('publishParameters'));
  const name = parameters.name;
  if (await findTileCacheByName(db, 'MapServer', name)) {
    throw badRequest(`Service name '${name}' already exists.`, [
      'Choose another name, or delete the service that has it.',
    ]);
  }
  const levels = parseTileLevels(parameters);
  const definition: CacheDefinition = levels
    ? webMercatorCache({ ...levels, storage: parameters.storage })
    : { ...webMercatorCache({ minLevel: 0, maxLevel: 0, storage: parameters.storage }), lods: [] };
  const layers = (await listLayers(db, sourceId))
    .filter((l) => l.definition.type !== 'Table' && l.definition.geometryType)
    .map((l) => ({
      id: l.layerId,
      name: String(l.definition.name ?? `Layer ${l.layerId}`),
      geometryType: l.definition.geometryType,
      drawingInfo: l.definition.drawingInfo,
    }));

  const now = deps.now();
  const serviceItemId = randomBytes(16).toString('hex');
  const jobId = randomUUID();
  const url = `${servicesUrl(c)}/Hosted/${name}/MapServer`;
  await insertTileCache(db, {
    serviceItemId,
    name,
    owner: user.username,
    serviceType: 'MapServer',
    sourceServiceItemId: sourceId,
    status: 'building',
    definition,
    service: { layers, description: parameters.description, copyrightText: parameters.copyrightText },
    created: now,
    modified: now,
  });
  await insertItem(db, {
    id: serviceItemId,
    owner: user.username,
    title: name.replaceAll('_', ' '),
    name,
    type: 'Map Service',
    typeKeywords: ['ArcGIS Server', 'Data', 'Map Service', 'Service', 'Tiled', 'Hosted Service'],
    description: parameters.description,
    licenseInfo: '',
    accessInformation: parameters.copyrightText,
    url,
    created: now,
    modified: now,
  });
  await insertRelationship(db, {
    originItemId: sourceId,
    destinationItemId: serviceItemId,
    relationshipType: 'Service2Service',
    createdBy: user.username,
    created: now,
  });
  const job = await insertJob(db, {
    id: jobId,
    serviceItemId,
    sourceItemId: sourceId,
    owner: user.username,
    fileType: 'featureService',
    jobType: 'publish',
    workflowId: tilePublishWorkflowId(jobId),
    status: 'processing',
    statusMessage: 'processing',
    // The job table's request column is typed for feature publishing; a tile job keeps its own
    // request on the tile cache row and stores only the service name here.
    request: { serviceName: name, sourceSize: 0 } as unknown as PublishRequest,
    created: now,
    modified: now,
  });
  await startTilePublish(
    c,
    job,
    'featureService',
    params.get('buildInitialCache')?.toLowerCase() !== 'false',
  );
  return { services: [{ type: 'Map Service', serviceurl: url, jobId, serviceItemId }] };
}

export async function startTilePublish(
  c: Context<AppEnv>,
  job: PublishJobRow,
  kind: TilePublishKind,
  buildInitialCache: boolean,
): Promise<void> {
  const { config } = c.get('deps');
  const client = await c.get('deps').temporal();
  const input: TilePublishInput = {
    jobId: job.id,
    serviceItemId: job.serviceItemId,
    kind,
    buildInitialCache,
  };
  await client.workflow.start(TILE_PUBLISH_WORKFLOW, {
    taskQueue: config.temporal.taskQueue,
    workflowId: job.workflowId,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
    memo: { serviceItemId: job.serviceItemId, jobId: job.id, kind },
  });
}
