/**
 * content/users/{u}/publish: checks the request, creates the Feature Service item (related to its
 * source by Service2Data) and the job, starts the workflow and answers at once with services[].
 */

import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteItemRow, insertItem, insertRelationship } from '../../db/repositories/items.js';
import { findJob, insertJob, type PublishJobRow } from '../../db/repositories/jobs.js';
import { deleteService, findServiceByName, insertService } from '../../db/repositories/services.js';
import { deleteTileCache, findTileCacheByName } from '../../db/repositories/tile-caches.js';
import type { PublishRequest } from '../../db/schema/publish-request.js';
import { publishSourceKey } from '../../infra/object-keys.js';
import { keepUploadedCopy } from '../../infra/readers/sqlite-spool.js';
import { serviceDefinitionKind, sevenZipNames } from '../../infra/service-definition.js';
import { isAdmin } from '../../lib/access/roles.js';
import { badRequest, forbidden, GeoError, internalError } from '../../lib/errors.js';
import { publishWorkflowId } from '../../workflows/messages.js';
import { requireUser } from '../auth.js';
import type { AppEnv } from '../env.js';
import { requirePublisher } from '../portal/access.js';
import { publishTiles } from '../services/map-server-package-publish.js';
import { parseTileParameters } from '../services/map-server-parameters.js';
import {
  createCachedMapService,
  requestedCacheDefinition,
  tilePublishKind,
} from '../services/map-server-publish.js';
import { servicesUrl } from '../urls.js';
import { chooseItemId, derivedJobId } from './item-id-to-create.js';
import { overwriteService } from './overwrite-route.js';
import {
  FILE_TYPES,
  parseFileType,
  parseJsonParameter,
  parsePublishParameters,
} from './publish-parameters.js';
import {
  checkSourceSize,
  impliedFileType,
  readSourceRange,
  resolveSource,
  storeSource,
} from './publish-source.js';
import { startWorkflow } from './publish-workflow-start.js';

export const serviceUrl = (c: Context<AppEnv>, name: string) =>
  `${servicesUrl(c)}/Hosted/${name}/FeatureServer`;

function servicesResponse(c: Context<AppEnv>, job: PublishJobRow, cacheJob?: PublishJobRow) {
  const name = job.request.serviceName;
  const mapService = cacheJob && {
    type: 'Map Service',
    serviceurl: `${servicesUrl(c)}/Hosted/${name}/MapServer`,
    encodedServiceURL: `${servicesUrl(c)}/Hosted/${encodeURIComponent(name)}/MapServer`,
    jobId: cacheJob.id,
    serviceItemId: cacheJob.serviceItemId,
  };
  return {
    services: [
      {
        type: 'Feature Service',
        serviceurl: serviceUrl(c, name),
        encodedServiceURL: `${servicesUrl(c)}/Hosted/${encodeURIComponent(name)}/FeatureServer`,
        size: job.request.sourceSize,
        jobId: job.id,
        serviceItemId: job.serviceItemId,
      },
      ...(mapService ? [mapService] : []),
    ],
  };
}

/** The Map Service job of a publish with buildInitialCache, derived from the publish job's id. */
const cacheJobIdFor = (jobId: string) => derivedJobId(jobId, 'initial-cache');

/**
 * Bytes from which a CSV is read by a load's thread path (activities/publish/load-layer.ts THREAD_MIN_BYTES:
 * the CSV load thread on PostgreSQL, the encoder thread's batches on PGlite): only then is its upload's file
 * kept for the load to read (a file the load does not take is removed after a minute,
 * infra/readers/sqlite-spool.ts).
 */
const CSV_COPY_MIN_BYTES = 4 * 1024 * 1024;
const keepsCsvUpload = (request: PublishRequest) =>
  request.fileType === 'csv' && request.sourceSize >= CSV_COPY_MIN_BYTES;

async function isTiledServiceDefinition(c: Context<AppEnv>): Promise<boolean> {
  const params = c.get('params');
  const deps = c.get('deps');
  if (FILE_TYPES[(params.get('filetype') ?? '').trim().toLowerCase()] !== 'serviceDefinition') return false;
  if (params.get('overwrite')?.toLowerCase() === 'true') return false;
  const source = await resolveSource(deps.database.db, params, requireUser(c), 'serviceDefinition');
  checkSourceSize('serviceDefinition', source, deps.config.sqliteMaxBytes);
  // The kind is told by the file names in the archive's header: only the header is read here, in the
  // API, and nothing is unpacked.
  const names = await sevenZipNames({
    size: source.size,
    read: (offset, length) => readSourceRange(deps.store, source, offset, length),
  });
  return serviceDefinitionKind(names) === 'tiles';
}

export async function publish(c: Context<AppEnv>) {
  const user = requireUser(c);
  const deps = c.get('deps');
  const db = deps.database.db;
  const params = c.get('params');
  const owner = c.req.param('user') ?? user.username;
  if (owner.toLowerCase() !== user.username.toLowerCase() && !isAdmin(user)) throw forbidden();
  // Tiled outputs (Map and Vector Tile Services) are published by the tile cache module.
  const tileKind = tilePublishKind(params.get('filetype'), params.get('outputType'));
  const vectorKind = tileKind === 'vectorTilePackage' || tileKind === 'featureServiceVectorTiles';
  requirePublisher(c, vectorKind ? 'vectorTiles' : tileKind ? 'tiles' : 'features');
  if (params.get('buildInitialCache')?.toLowerCase() === 'true') requirePublisher(c, 'tiles');
  if (tileKind) return publishTiles(c, tileKind);
  // A service definition carrying a tile cache publishes as a tile package does.
  if (await isTiledServiceDefinition(c)) return publishTiles(c, 'tilePackage');
  if (params.get('overwrite')?.toLowerCase() === 'true') return overwriteService(c);

  const { itemIdToCreate, jobId, previous } = await chooseItemId(
    db,
    params,
    user.username,
    params.file('file')?.staged?.id,
  );
  if (previous) return servicesResponse(c, previous, await findJob(db, cacheJobIdFor(jobId)));

  const rawType = params.get('filetype');
  const source = await resolveSource(db, params, user, rawType ? parseFileType(rawType) : null);
  const fileType = parseFileType(rawType ?? impliedFileType(source));
  checkSourceSize(fileType, source, deps.config.sqliteMaxBytes);
  const checked = parsePublishParameters({
    fileType,
    parameters: parseJsonParameter('publishParameters', params.get('publishParameters'), true),
    buildInitialCache: params.get('buildInitialCache')?.toLowerCase() === 'true',
    outputType: params.get('outputType') ?? '',
  });
  if (await findServiceByName(db, checked.serviceName)) {
    throw badRequest(`Service name '${checked.serviceName}' already exists.`, [
      'Choose another name, or delete the service that has it.',
    ]);
  }
  // buildInitialCache: a Map Service of the same name serves the cache built from the new service.
  const cacheParameters = checked.service.buildInitialCache
    ? parseTileParameters(params.get('publishParameters'))
    : undefined;
  if (cacheParameters && (await findTileCacheByName(db, 'MapServer', checked.serviceName))) {
    throw badRequest(`Service name '${checked.serviceName}' already exists.`, [
      'A Map Service of that name exists; choose another name, or delete the service that has it.',
    ]);
  }

  const serviceItemId = itemIdToCreate ?? randomBytes(16).toString('hex');
  const sourceKey = publishSourceKey(jobId);
  const request: PublishRequest = { ...checked, sourceKey, sourceSize: source.size };
  const now = deps.now();
  const url = serviceUrl(c, checked.serviceName);
  const cache = cacheParameters && {
    serviceItemId: randomBytes(16).toString('hex'),
    jobId: cacheJobIdFor(jobId),
  };
  // The job's copy of the source is made while its rows are written: the workflow starts once both are.
  const stored = storeSource(deps.store, source, sourceKey);
  stored.catch(() => {});
  let created = false;
  try {
    // One transaction, one commit: the service, its item (and relationship), the job, and the Map
    // Service of a cache to build appear together or not at all.
    const { job, cacheJob } = await db.transaction(async (tx) => {
      try {
        await insertService(tx, {
          serviceItemId,
          name: checked.serviceName,
          owner: user.username,
          status: 'processing',
          definition: {},
          created: now,
          modified: now,
        });
      } catch {
        throw badRequest(`Service name '${checked.serviceName}' already exists.`, []);
      }
      await insertItem(tx, {
        id: serviceItemId,
        owner: user.username,
        title: checked.serviceName.replaceAll('_', ' '),
        name: checked.serviceName,
        type: 'Feature Service',
        typeKeywords: [
          'ArcGIS Server',
          'Data',
          'Feature Access',
          'Feature Service',
          'Service',
          'Hosted Service',
        ],
        description: checked.service.description,
        licenseInfo: '',
        accessInformation: checked.service.copyrightText,
        url,
        created: now,
        modified: now,
      });
      if (source.kind === 'item') {
        await insertRelationship(tx, {
          originItemId: serviceItemId,
          destinationItemId: source.item.id,
          relationshipType: 'Service2Data',
          createdBy: user.username,
          created: now,
        });
      }
      const job = await insertJob(tx, {
        id: jobId,
        serviceItemId,
        sourceItemId: source.kind === 'item' ? source.item.id : null,
        owner: user.username,
        fileType,
        workflowId: publishWorkflowId(jobId),
        status: 'processing',
        statusMessage: 'processing',
        request,
        created: now,
        modified: now,
      });
      const cacheJob =
        cache &&
        cacheParameters &&
        (await createCachedMapService(tx, {
          ...cache,
          workflowId: publishWorkflowId(jobId),
          name: checked.serviceName,
          owner: user.username,
          sourceServiceItemId: serviceItemId,
          definition: requestedCacheDefinition(cacheParameters),
          layers: [],
          description: checked.service.description,
          copyrightText: checked.service.copyrightText,
          url: `${servicesUrl(c)}/Hosted/${checked.serviceName}/MapServer`,
          now,
        }));
      return { job, cacheJob };
    });
    created = true;
    await stored;
    // A GeoPackage or SQLite upload's temporary file is the object's bytes: planning in this process
    // reads it instead of copying the object back out of MinIO (a million points: 168 MB). A large CSV's
    // is read by its load (activities/publish/load-layer.ts csvThreadLoad, threadBatches).
    if (source.kind === 'file' && (request.fileType === 'sqlite' || keepsCsvUpload(request)))
      await keepUploadedCopy(deps.store, sourceKey, source.path);
    await startWorkflow(c, job, cache);
    return servicesResponse(c, job, cacheJob);
  } catch (e) {
    // No job will read the copy of a publish that never started.
    await stored.then(() => deps.store.remove(sourceKey)).catch(() => {});
    if (created) {
      if (cache) {
        await deleteTileCache(db, cache.serviceItemId).catch(() => {});
        await deleteItemRow(db, cache.serviceItemId).catch(() => {});
      }
      await deleteItemRow(db, serviceItemId).catch(() => {});
      await deleteService(db, serviceItemId).catch(() => {});
    }
    if (e instanceof GeoError) throw e;
    deps.log.error('publish could not start', { err: e, jobId });
    throw internalError('Unable to publish.', ['The publishing job could not be started.']);
  }
}
