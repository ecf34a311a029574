/**
 * Publishing a tiled Map Service from an existing hosted feature service (filetype featureService,
 * outputType Tiles): a Map Service item related to the feature service by Service2Service, a tile
 * cache row, a publish job, and the tile publish workflow that builds the cache as its child.
 */

import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import type { Database } from '../../db/client.js';
import { findItem, insertItem, insertRelationship } from '../../db/repositories/items.js';
import { insertJob, type PublishJobRow } from '../../db/repositories/jobs.js';
import { drawableLayers } from '../../db/repositories/layer-features.js';
import { findService, listLayers } from '../../db/repositories/services.js';
import { findTileCacheByName, insertTileCache } from '../../db/repositories/tile-caches.js';
import { isTileRequest } from '../../db/schema/publish-request.js';
import { canChange } from '../../lib/access/items.js';
import { badRequest, forbidden, itemNotFound } from '../../lib/errors.js';
import { unionBounds } from '../../lib/geometry/bounds.js';
import type { CacheDefinition } from '../../lib/tiles/cache-definition.js';
import { webMercatorCache } from '../../lib/tiles/cache-definition.js';
import { checkTileBudget } from '../../lib/tiles/tile-budget.js';
import {
  TILE_PUBLISH_WORKFLOW,
  type TilePublishInput,
  type TilePublishKind,
  tilePublishWorkflowId,
} from '../../workflows/tile-cache-messages.js';
import type { tilePublishWorkflow } from '../../workflows/tile-cache-publish.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { chooseItemId } from '../publish/item-id-to-create.js';
import { servicesUrl } from '../urls.js';
import { parseTileLevels, parseTileParameters, type TileParameters } from './map-server-parameters.js';

/** The file types this module publishes; the publish route hands them over before its own checks. */
export function tilePublishKind(
  filetype: string | undefined,
  outputType: string | undefined,
): TilePublishKind | undefined {
  const f = (filetype ?? '').trim().toLowerCase();
  const output = (outputType ?? '').trim().toLowerCase();
  if ((f === 'featureservice' || f === 'service') && output === 'vectortiles')
    return 'featureServiceVectorTiles';
  if (f === 'featureservice' && output !== '' && output !== 'tiles') {
    throw badRequest('Invalid or missing input parameters.', [
      `outputType '${outputType}' cannot be published from a feature service; use Tiles or VectorTiles.`,
    ]);
  }
  if (f === 'featureservice' || (f === 'service' && output === 'tiles')) return 'featureService';
  if (f === 'tilepackage' || f === 'compacttilepackage') return 'tilePackage';
  if (f === 'vectortilepackage') return 'vectorTilePackage';
  return undefined;
}

export interface TilePublishResponse {
  services: { type: string; serviceurl: string; jobId: string; serviceItemId: string }[];
}

/**
 * Publishes a Map Service with a tile cache, or (`vector`) a Vector Tile Service, from a hosted feature
 * service item.
 */
export async function publishTilesFromFeatureService(
  c: Context<AppEnv>,
  vector = false,
): Promise<TilePublishResponse> {
  const user = requireUser(c);
  const deps = c.get('deps');
  const db = deps.database.db;
  const params = c.get('params');
  const { itemIdToCreate, jobId, previous } = await chooseItemId(db, params, user.username);
  if (previous) return tileServicesResponse(c, previous);
  const sourceId = (params.get('itemid') ?? '').toLowerCase();
  const source = sourceId ? await findItem(db, sourceId) : undefined;
  if (!source) throw itemNotFound();
  if (!canChange(source, user)) throw forbidden();
  const service = await findService(db, sourceId);
  if (source.type !== 'Feature Service' || service?.status !== 'ready') {
    throw badRequest('Unable to publish.', [
      `Item ${sourceId} is not a hosted feature service that is ready.`,
    ]);
  }
  const parameters = parseTileParameters(params.get('publishParameters'));
  const name = parameters.name;
  const serviceType = vector ? 'VectorTileServer' : 'MapServer';
  if (vector && parameters.storage !== 'compactV2') {
    throw badRequest('Invalid publishParameters.', [
      'Vector tile services are stored in compact bundles only.',
    ]);
  }
  if (await findTileCacheByName(db, serviceType, name)) {
    throw badRequest(`Service name '${name}' already exists.`, [
      'Choose another name, or delete the service that has it.',
    ]);
  }
  const definition = requestedCacheDefinition(parameters, vector);
  if (definition.lods.length > 0) {
    const drawable = await drawableLayers(deps.database, sourceId);
    checkTileBudget(
      unionBounds(drawable.layers.map((l) => l.extent)),
      definition.lods[0].level,
      definition.lods[definition.lods.length - 1].level,
      deps.config.tileBuildMaxTiles,
    );
  }
  const layers = (await listLayers(db, sourceId))
    .filter((l) => l.definition.type !== 'Table' && l.definition.geometryType)
    .map((l) => ({
      id: l.layerId,
      name: String(l.definition.name ?? `Layer ${l.layerId}`),
      geometryType: l.definition.geometryType,
      drawingInfo: l.definition.drawingInfo,
    }));

  const now = deps.now();
  const serviceItemId = itemIdToCreate ?? randomBytes(16).toString('hex');
  const url = `${servicesUrl(c)}/Hosted/${name}/${serviceType}`;
  const job = await createCachedMapService(db, {
    serviceType,
    serviceItemId,
    jobId,
    workflowId: tilePublishWorkflowId(jobId),
    name,
    owner: user.username,
    sourceServiceItemId: sourceId,
    definition,
    layers,
    description: parameters.description,
    copyrightText: parameters.copyrightText,
    url,
    now,
  });
  await startTilePublish(
    c,
    job,
    vector ? 'featureServiceVectorTiles' : 'featureService',
    params.get('buildInitialCache')?.toLowerCase() !== 'false',
  );
  const type = vector ? 'Vector Tile Service' : 'Map Service';
  return { services: [{ type, serviceurl: url, jobId, serviceItemId }] };
}

/** The answer to a repeated request with the same itemIdToCreate: the job it started before. */
export function tileServicesResponse(c: Context<AppEnv>, job: PublishJobRow): TilePublishResponse {
  const vector =
    job.fileType === 'vectorTilePackage' ||
    (isTileRequest(job.request) && job.request.tileKind === 'featureServiceVectorTiles');
  const server = vector ? 'VectorTileServer' : 'MapServer';
  return {
    services: [
      {
        type: vector ? 'Vector Tile Service' : 'Map Service',
        serviceurl: `${servicesUrl(c)}/Hosted/${job.request.serviceName}/${server}`,
        jobId: job.id,
        serviceItemId: job.serviceItemId,
      },
    ],
  };
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
  await client.workflow.start<typeof tilePublishWorkflow>(TILE_PUBLISH_WORKFLOW, {
    taskQueue: config.temporal.taskQueue,
    workflowId: job.workflowId,
    workflowIdConflictPolicy: 'USE_EXISTING',
    args: [input],
    memo: { serviceItemId: job.serviceItemId, jobId: job.id, kind },
  });
}

export interface CachedMapService {
  /** MapServer unless given: a Vector Tile Service's cache holds vector tiles. */
  serviceType?: 'MapServer' | 'VectorTileServer';
  serviceItemId: string;
  jobId: string;
  /** The workflow that completes the job (the tile publish, or the feature publish that builds it). */
  workflowId: string;
  name: string;
  owner: string;
  sourceServiceItemId: string;
  definition: CacheDefinition;
  /** Service JSON layers; empty when the source's layers are not loaded yet (the build fills them). */
  layers: Record<string, unknown>[];
  description: string;
  copyrightText: string;
  url: string;
  now: number;
}

/**
 * The rows of a Map Service drawn from a hosted feature service: its tile cache (building), its item
 * related to the feature service by Service2Service, and the job its build completes.
 */
export async function createCachedMapService(db: Database, m: CachedMapService): Promise<PublishJobRow> {
  const vector = m.serviceType === 'VectorTileServer';
  await insertTileCache(db, {
    serviceItemId: m.serviceItemId,
    name: m.name,
    owner: m.owner,
    serviceType: m.serviceType ?? 'MapServer',
    sourceServiceItemId: m.sourceServiceItemId,
    status: 'building',
    definition: m.definition,
    service: { layers: m.layers, description: m.description, copyrightText: m.copyrightText },
    created: m.now,
    modified: m.now,
  });
  await insertItem(db, {
    id: m.serviceItemId,
    owner: m.owner,
    title: m.name.replaceAll('_', ' '),
    name: m.name,
    type: vector ? 'Vector Tile Service' : 'Map Service',
    typeKeywords: vector
      ? ['ArcGIS Server', 'Data', 'Vector Tile Service', 'Service', 'Hosted Service']
      : ['ArcGIS Server', 'Data', 'Map Service', 'Service', 'Tiled', 'Hosted Service'],
    description: m.description,
    licenseInfo: '',
    accessInformation: m.copyrightText,
    url: m.url,
    created: m.now,
    modified: m.now,
  });
  await insertRelationship(db, {
    originItemId: m.sourceServiceItemId,
    destinationItemId: m.serviceItemId,
    relationshipType: 'Service2Service',
    createdBy: m.owner,
    created: m.now,
  });
  return insertJob(db, {
    id: m.jobId,
    serviceItemId: m.serviceItemId,
    sourceItemId: m.sourceServiceItemId,
    owner: m.owner,
    fileType: 'featureService',
    jobType: 'publish',
    workflowId: m.workflowId,
    status: 'processing',
    statusMessage: 'processing',
    request: {
      kind: 'tiles',
      tileKind: vector ? 'featureServiceVectorTiles' : 'featureService',
      serviceName: m.name,
      sourceSize: 0,
      sourceServiceItemId: m.sourceServiceItemId,
      persistErrorRecordsForReview: false,
    },
    created: m.now,
    modified: m.now,
  });
}

/**
 * The cache definition for the levels a request names, or none yet (the build picks them). Vector
 * tiles are 512 pixels wide, so a scale range names the levels one below the 256-pixel scheme's.
 */
export function requestedCacheDefinition(parameters: TileParameters, vector = false): CacheDefinition {
  let levels = parseTileLevels(parameters);
  if (levels && vector && parameters.levels === undefined)
    levels = { minLevel: Math.max(0, levels.minLevel - 1), maxLevel: Math.max(0, levels.maxLevel - 1) };
  const format = vector ? 'pbf' : undefined;
  return levels
    ? webMercatorCache({ ...levels, storage: parameters.storage, format })
    : { ...webMercatorCache({ minLevel: 0, maxLevel: 0, storage: parameters.storage, format }), lods: [] };
}
