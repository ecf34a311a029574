/**
 * Publishing a tile package (.tpk, .tpkx) as a tiled Map Service, or a vector tile package (.vtpk) as
 * a Vector Tile Service: the upload (or the package item's file) is stored under the job's key, and the
 * tile publish workflow copies its tiles into the cache.
 */

import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { mayReadItem } from '../../db/repositories/access.js';
import { findItem, insertItem, insertRelationship } from '../../db/repositories/items.js';
import { insertJob } from '../../db/repositories/jobs.js';
import { findTileCacheByName, insertTileCache } from '../../db/repositories/tile-caches.js';
import { publishSourceKey } from '../../infra/object-keys.js';
import { badRequest, forbidden, itemNotFound } from '../../lib/errors.js';
import { webMercatorCache } from '../../lib/tiles/cache-definition.js';
import type { TilePublishKind } from '../../workflows/tile-cache-messages.js';
import { tilePublishWorkflowId } from '../../workflows/tile-cache-messages.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { chooseItemId } from '../publish/item-id-to-create.js';
import { storeSource } from '../publish/publish-source.js';
import { servicesUrl } from '../urls.js';
import { parseTileParameters } from './map-server-parameters.js';
import {
  publishTilesFromFeatureService,
  startTilePublish,
  type TilePublishResponse,
  tileServicesResponse,
} from './map-server-publish.js';

/** The publish route's entry for every tiled output. */
export async function publishTiles(c: Context<AppEnv>, kind: TilePublishKind): Promise<TilePublishResponse> {
  if (kind === 'featureService') return publishTilesFromFeatureService(c);
  if (kind === 'featureServiceVectorTiles') return publishTilesFromFeatureService(c, true);
  return publishTilesFromPackage(c, kind);
}

async function publishTilesFromPackage(
  c: Context<AppEnv>,
  kind: 'tilePackage' | 'vectorTilePackage',
): Promise<TilePublishResponse> {
  const user = requireUser(c);
  const deps = c.get('deps');
  const db = deps.database.db;
  const params = c.get('params');
  const { itemIdToCreate, jobId, previous } = await chooseItemId(
    db,
    params,
    user.username,
    params.file('file')?.staged?.id,
  );
  if (previous) return tileServicesResponse(c, previous);
  const parameters = parseTileParameters(params.get('publishParameters'));
  const serviceType = kind === 'vectorTilePackage' ? 'VectorTileServer' : 'MapServer';
  if (await findTileCacheByName(db, serviceType, parameters.name)) {
    throw badRequest(`Service name '${parameters.name}' already exists.`, [
      'Choose another name, or delete the service that has it.',
    ]);
  }
  const key = publishSourceKey(jobId);
  const itemId = params.get('itemid');
  const file = params.file('file');
  let sourceItemId: string | null = null;
  if (itemId) {
    const item = await findItem(db, itemId);
    if (!item) throw itemNotFound();
    if (!(await mayReadItem(db, item, user))) throw forbidden();
    if (!item.dataKey)
      throw badRequest('Unable to publish the item.', [`Item ${itemId} has no file to publish.`]);
    await deps.store.copy(item.dataKey, key);
    sourceItemId = item.id;
  } else if (file) {
    await storeSource(deps.store, { kind: 'file', ...file, name: file.filename }, key);
  } else {
    throw badRequest('Invalid or missing input parameters.', ["One of 'itemid' or 'file' is required."]);
  }

  const now = deps.now();
  const serviceItemId = itemIdToCreate ?? randomBytes(16).toString('hex');
  const url = `${servicesUrl(c)}/Hosted/${parameters.name}/${serviceType}`;
  const type = kind === 'vectorTilePackage' ? 'Vector Tile Service' : 'Map Service';
  await insertTileCache(db, {
    serviceItemId,
    name: parameters.name,
    owner: user.username,
    serviceType,
    sourceServiceItemId: null,
    status: 'building',
    // Replaced by the package's own definition when the workflow reads it.
    definition: { ...webMercatorCache({ minLevel: 0, maxLevel: 0 }), lods: [] },
    service: { layers: [], description: parameters.description, copyrightText: parameters.copyrightText },
    created: now,
    modified: now,
  });
  await insertItem(db, {
    id: serviceItemId,
    owner: user.username,
    title: parameters.name.replaceAll('_', ' '),
    name: parameters.name,
    type,
    typeKeywords:
      kind === 'vectorTilePackage'
        ? ['ArcGIS Server', 'Data', 'Vector Tile Service', 'Service', 'Hosted Service']
        : ['ArcGIS Server', 'Data', 'Map Service', 'Service', 'Tiled', 'Hosted Service'],
    description: parameters.description,
    licenseInfo: '',
    accessInformation: parameters.copyrightText,
    url,
    created: now,
    modified: now,
  });
  if (sourceItemId) {
    await insertRelationship(db, {
      originItemId: serviceItemId,
      destinationItemId: sourceItemId,
      relationshipType: 'Service2Data',
      createdBy: user.username,
      created: now,
    });
  }
  const job = await insertJob(db, {
    id: jobId,
    serviceItemId,
    sourceItemId,
    owner: user.username,
    fileType: kind,
    jobType: 'publish',
    workflowId: tilePublishWorkflowId(jobId),
    status: 'processing',
    statusMessage: 'processing',
    request: {
      kind: 'tiles',
      tileKind: kind,
      serviceName: parameters.name,
      sourceSize: file?.size ?? 0,
      persistErrorRecordsForReview: false,
    },
    created: now,
    modified: now,
  });
  await startTilePublish(c, job, kind, true);
  return { services: [{ type, serviceurl: url, jobId, serviceItemId }] };
}
