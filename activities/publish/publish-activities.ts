/**
 * The publish pipeline's activities, each idempotent and keyed by job id: plan the layers from the
 * data, load each layer, finish it (indexes, counts, extent, layer resource), then mark the service
 * ready, or undo everything when the job fails. Arguments and results are ids and counts only.
 */
import { Context } from '@temporalio/activity';
import { sql } from 'drizzle-orm';
import type { Database, DatabaseHandle } from '../../db/client.js';
import { addTrackingColumns } from '../../db/repositories/feature-edits.js';
import {
  dropStagingTables,
  isStagingTable,
  stagingTableName,
  swapInStagedLayers,
  targetOfStaging,
} from '../../db/repositories/feature-table-swap.js';
import {
  dropFeatureTable,
  type FeatureTableStats,
  featureTableExists,
  featureTableStats,
  featureTableTimeExtent,
  indexFeatureTable,
} from '../../db/repositories/feature-tables.js';
import { deleteItemRow, findItem, updateItem } from '../../db/repositories/items.js';
import {
  type FeatureJobRow,
  findJob,
  finishJob,
  isFeatureJob,
  updateJobProgress,
} from '../../db/repositories/jobs.js';
import {
  deleteService,
  findService,
  type HostedLayerRow,
  listLayers,
  type NewHostedLayer,
  updateService,
  upsertLayer,
} from '../../db/repositories/services.js';
import { deleteTileCache } from '../../db/repositories/tile-caches.js';
import type { LayerPlan, PublishPlan } from '../../db/schema/publish-request.js';
import { publishJobs } from '../../db/schema/publishing.js';
import { sharedBoundaryLookup } from '../../infra/boundary-service.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { badRequest, internalError } from '../../lib/errors.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { createTransformer, spatialReferenceForWkid, wkidOf } from '../../lib/projection/index.js';
import { noRowsPublishedMessage } from '../../lib/workflow-failures.js';
import { withFailureMapping } from './activity-errors.js';
import type { LoadedStats } from './copy-stats.js';
import type { GeocodeCounts } from './geocoder.js';
import { buildLayerDefinition, buildServiceDefinition, editorTrackingFieldsOf } from './layer-definition.js';
import { planLayer } from './layer-plan.js';
import { sourceTables } from './layer-sources.js';
import { timeFieldsOf, timeInfoResource } from './layer-time-info.js';
import { type LoadProgress, type LoadResult, loadLayer } from './load-layer.js';
import type { PublishDeps } from './publish-deps.js';
import { readingSourceOnce } from './source-read-once.js';
import { measuredTextFields, withMeasuredLengths } from './sqlite-text-widths.js';

export interface LayerRef {
  layerId: number;
  name: string;
}

/** Counts over all layers, kept on the job for the status operation. */
export interface JobTotals {
  rowsRead: number;
  rowsLoaded: number;
  rowsRejected: number;
  featureCount: number;
  /** Address layers: rows matched, tied and unmatched by the geocoder, summed over the layers. */
  matched?: number;
  tied?: number;
  unmatched?: number;
}

export interface FinishedLayer {
  layerId: number;
  featureCount: number;
}

/** What a one-step small publish did, layer by layer, for the workflow's progress and result. */
export interface SmallPublishResult {
  layers: {
    layerId: number;
    name: string;
    rowsRead: number;
    rowsLoaded: number;
    rowsRejected: number;
    featureCount: number;
  }[];
  featureCount: number;
  rowsRejected: number;
}

const addGeocodeCounts = (a: GeocodeCounts | undefined, b: GeocodeCounts): GeocodeCounts => ({
  matched: (a?.matched ?? 0) + b.matched,
  tied: (a?.tied ?? 0) + b.tied,
  unmatched: (a?.unmatched ?? 0) + b.unmatched,
});

export function createPublishActivities(deps: PublishDeps) {
  const { database } = deps;
  const db = database.db;

  async function job(jobId: string): Promise<FeatureJobRow> {
    const row = await findJob(db, jobId);
    if (!row) throw internalError('Unable to complete operation.', [`Publish job ${jobId} does not exist.`]);
    if (!isFeatureJob(row))
      throw internalError('Unable to complete operation.', [`Job ${jobId} publishes tiles, not features.`]);
    return row;
  }

  function layerPlan(row: FeatureJobRow, layerId: number): LayerPlan {
    const plan = row.plan?.layers.find((l) => l.id === layerId);
    if (!plan)
      throw internalError('Unable to complete operation.', [
        `Job ${row.id} has no plan for layer ${layerId}.`,
      ]);
    return plan;
  }

  /** The layer row of a loaded table: its resource with count and extent, and its columns. */
  /** `scanned`: the table's count, extent and measured widths when the caller has them already. */
  async function layerRowOf(
    row: FeatureJobRow,
    planned: LayerPlan,
    database: DatabaseHandle = deps.database,
    scanned?: FeatureTableStats,
  ): Promise<NewHostedLayer> {
    const tracking = editorTrackingFieldsOf(planned, row.request.service);
    // A retried swap finds the table already renamed to its target.
    const table =
      isStagingTable(planned.tableName) && !(await featureTableExists(database, planned.tableName))
        ? targetOfStaging(planned.tableName)
        : planned.tableName;
    // Text widths a GeoPackage or SQLite file leaves undeclared: the longest value loaded, measured in
    // the same scan as the count and extent (every attempt's rows are in the table).
    const measured = measuredTextFields(planned);
    const stats =
      scanned ??
      (await featureTableStats(
        database,
        table,
        measured.map((f) => f.column),
      ));
    const plan = measured.length > 0 ? withMeasuredLengths(planned, measured, stats.longest ?? []) : planned;
    const spatialReference = spatialReferenceForWkid(wkidOf(row.request.targetSR) ?? 3857);
    const layerRequest = row.request.layers.find((l) => l.id === plan.id) ?? row.request.layers[0];
    const layerInfo = {
      // What the file declares (plan.relationships) is there only when the request declares none.
      ...(plan.relationships ? { relationships: plan.relationships } : {}),
      ...(layerRequest?.layerInfo ?? {}),
      name: plan.name,
    };
    const timeFields = timeFieldsOf(plan, layerInfo);
    const definition = buildLayerDefinition({
      plan,
      layerInfo,
      ...(timeFields
        ? {
            timeInfo: timeInfoResource(
              timeFields,
              await featureTableTimeExtent(
                database,
                table,
                timeFields.start.column,
                timeFields.end?.column ?? null,
              ),
            ),
          }
        : {}),
      service: row.request.service,
      serviceItemId: row.serviceItemId,
      spatialReference,
      extent: stats.extent,
    });
    return {
      serviceItemId: row.serviceItemId,
      layerId: plan.id,
      tableName: plan.tableName,
      definition,
      columns: [
        { name: 'OBJECTID', column: 'objectid' },
        ...plan.fields.map((f) => ({ name: f.name, column: f.column })),
        ...tracking.map((f) => ({ name: f.name, column: f.column })),
      ],
      featureCount: stats.count,
    };
  }

  /** Reads a sample of the source, resolves fields and locations per layer, stores the plan. */
  async function planPublish(jobId: string): Promise<LayerRef[]> {
    const row = await job(jobId);
    if (row.plan) return row.plan.layers.map((l) => ({ layerId: l.id, name: l.name }));
    const plan = await planOf(row, deps.store);
    await storePlan(db, jobId, plan);
    return plan.layers.map((l) => ({ layerId: l.id, name: l.name }));
  }

  const storePlan = (on: Database, jobId: string, plan: PublishPlan) =>
    on.update(publishJobs).set({ plan, modified: deps.now() }).where(sql`${publishJobs.id} = ${jobId}`);

  /** The plan of a job's layers: a sample of the source read, fields and locations resolved. */
  async function planOf(row: FeatureJobRow, store: ObjectStore): Promise<PublishPlan> {
    const jobId = row.id;
    const request = row.request;
    // A GeoPackage's temporary copy is kept for the load that follows in this process.
    const tables = await sourceTables(store, request, deps.parseLimits, true);
    // Built only when a lookup layer must find its column of place names in the data.
    const detecting = tables.some(
      (t) => t.layer.location.type === 'lookup' && Object.keys(t.layer.location.lookupFields).length === 0,
    );
    const boundaries = detecting ? await (deps.boundaries ?? sharedBoundaryLookup)() : undefined;
    const layers = tables.map((t) =>
      planLayer({
        serviceItemId: row.serviceItemId,
        layer: t.layer,
        sample: {
          headers: t.headers,
          rows: t.sampleRows,
          geometryType: t.geometryType,
          textColumns: t.textColumns,
          declaredFields: t.declaredFields,
        },
        source: t.source,
        sourceSR: t.sourceSR
          ? t.sourceSR
          : t.wgs84Geometry
            ? request.fileType === 'geojson' && request.sourceSR
              ? request.sourceSR
              : { wkid: 4326 }
            : (request.sourceSR ?? { wkid: 4326 }),
        decimalComma: t.decimalComma,
        boundaries,
      }),
    );
    tables.forEach((t, i) => {
      if (t.relationships) layers[i].relationships = t.relationships;
    });
    for (const l of layers) {
      if (l.fields.length === 0 && !l.geometryType) {
        throw badRequest('Unable to publish the file.', [
          `Layer ${l.name} has neither fields nor locations.`,
        ]);
      }
    }
    // An overwrite loads beside the service's tables; swapInOverwrite replaces them at the end.
    if (request.overwrite) for (const l of layers) l.tableName = stagingTableName(l.tableName, jobId);
    const warnings = tables.flatMap((t) => t.warnings ?? []);
    return { layers, ...(warnings.length > 0 ? { warnings } : {}) };
  }

  /**
   * Indexes the loaded table and writes the layer resource with its count and extent. An overwrite
   * keeps the layer row as it is: its staged table and row are swapped in with the others at once.
   * `loaded`: the count, extent and measured widths the load told from its COPY data (copy-stats.ts);
   * without them (a load that could not tell, or one that ran before they were told) the table is
   * scanned for them.
   */
  async function finishLayer(jobId: string, layerId: number, loaded?: LoadedStats): Promise<FinishedLayer> {
    const { featureCount } = await finishLayerOf(deps.database, await job(jobId), layerId, loaded);
    return { layerId, featureCount };
  }

  async function finishLayerOf(
    database: DatabaseHandle,
    row: FeatureJobRow,
    layerId: number,
    loaded?: LoadedStats,
  ): Promise<FinishedLayer & { layer: NewHostedLayer }> {
    const plan = layerPlan(row, layerId);
    const measured = measuredTextFields(plan).map((f) => f.column);
    const told: FeatureTableStats | undefined =
      loaded && loaded.longest.length === measured.length
        ? {
            count: loaded.rows,
            extent: loaded.extent,
            ...(measured.length > 0 ? { longest: loaded.longest } : {}),
          }
        : undefined;
    // Otherwise the count, extent and widths are read while the indexes are built: on PostgreSQL the
    // scan takes another connection and process, beside the spatial index's sort (a million points:
    // 0.26 s of the 1.5-1.8 s that sort takes); on one connection (PGlite) it runs after them. Both are
    // waited for before a failure is thrown.
    const [indexed, scanned] = await Promise.allSettled([
      indexFeatureTable(database, plan.tableName, plan.geometryType),
      told ?? featureTableStats(database, plan.tableName, measured),
    ]);
    if (indexed.status === 'rejected') throw indexed.reason;
    if (scanned.status === 'rejected') throw scanned.reason;
    // Editor tracking: the loaded rows are credited to the publisher at the job's start.
    const tracking = editorTrackingFieldsOf(plan, row.request.service);
    await addTrackingColumns(database, plan.tableName, tracking, row.owner, row.created);
    const layer = await layerRowOf(row, plan, database, scanned.value);
    if (!row.request.overwrite) await upsertLayer(database.db, layer);
    return { layerId, featureCount: layer.featureCount ?? 0, layer };
  }

  /** Publishes the service resource and completes the job; the item gets its extent in WGS84. */
  /** `cacheFollows`: a tile cache is built next, and the job completes only after it. */
  async function markServiceReady(jobId: string, totals: JobTotals, cacheFollows = false): Promise<void> {
    await markReadyOf(deps.database, await job(jobId), totals, cacheFollows);
  }

  /**
   * markServiceReady on `database` (a transaction's handle joins it). `layers`: the service's layer
   * rows when the caller has just written them all, instead of reading them back.
   */
  async function markReadyOf(
    database: DatabaseHandle,
    row: FeatureJobRow,
    totals: JobTotals,
    cacheFollows: boolean,
    layers?: Pick<HostedLayerRow, 'definition'>[],
  ): Promise<void> {
    const on = database.db;
    // Independent reads: postgres.js sends them together on the connection.
    const [service, listed, item] = await Promise.all([
      findService(on, row.serviceItemId),
      layers ? undefined : listLayers(on, row.serviceItemId),
      findItem(on, row.serviceItemId),
    ]);
    if (!service) throw internalError('Unable to complete operation.', ['The service row is missing.']);
    const definitions = (layers ?? listed ?? []).map((l) => l.definition);
    const extent = unionBounds(definitions.map(extentOf));
    const spatialReference = spatialReferenceForWkid(wkidOf(row.request.targetSR) ?? 3857);
    const definition = buildServiceDefinition({
      serviceItemId: row.serviceItemId,
      name: service.name,
      service: row.request.service,
      spatialReference,
      extent,
      layers: definitions,
    });
    // One transaction: the service, its item and the job become ready together (and one commit).
    await database.transaction(async (tx) => {
      await Promise.all([
        updateService(tx.db, row.serviceItemId, { status: 'ready', definition, modified: deps.now() }),
        item &&
          updateItem(tx.db, row.serviceItemId, {
            extent: extent ? wgs84Extent(extent, spatialReference) : null,
            spatialReference: String(spatialReference.latestWkid ?? spatialReference.wkid ?? ''),
            typeKeywords: [
              ...item.typeKeywords.filter((k) => k !== 'Singlelayer' && k !== 'Multilayer'),
              definitions.length > 1 ? 'Multilayer' : 'Singlelayer',
            ],
            modified: deps.now(),
          }),
        updateJobProgress(tx.db, row.id, { ...totals }, deps.now()),
      ]);
      if (!cacheFollows) await finishJob(tx.db, row.id, 'completed', 'completed', deps.now());
    });
  }

  /** publishSmallFile's steps on `on`, with the job's plan in `row`. */
  async function publishSmall(
    on: DatabaseHandle,
    row: FeatureJobRow & { plan: PublishPlan },
    store: ObjectStore,
  ): Promise<SmallPublishResult> {
    const jobId = row.id;
    await storePlan(on.db, jobId, row.plan);
    const loadDeps: PublishDeps = { ...deps, database: on, store };
    const layers: SmallPublishResult['layers'] = [];
    const layerRows: NewHostedLayer[] = [];
    const reasons: string[] = [];
    let geocoded: GeocodeCounts | undefined;
    for (const plan of row.plan.layers) {
      const persist = row.request.persistErrorRecordsForReview;
      const loaded = await loadLayer(
        loadDeps,
        jobId,
        row.request,
        plan,
        persist,
        undefined,
        sameFileFollows(row, plan),
      );
      reasons.push(...loaded.reasons);
      if (loaded.geocoded) geocoded = addGeocodeCounts(geocoded, loaded.geocoded);
      const finished = await finishLayerOf(on, row, plan.id, loaded.stats);
      layerRows.push(finished.layer);
      layers.push({
        layerId: plan.id,
        name: plan.name,
        rowsRead: loaded.rowsRead,
        rowsLoaded: loaded.rowsLoaded,
        rowsRejected: loaded.rowsRejected,
        featureCount: finished.featureCount,
      });
    }
    const sum = (k: 'rowsRead' | 'rowsLoaded' | 'rowsRejected' | 'featureCount') =>
      layers.reduce((n, l) => n + l[k], 0);
    const featureCount = sum('featureCount');
    if (featureCount === 0) throw badRequest(noRowsPublishedMessage(reasons), []);
    const totals: JobTotals = {
      rowsRead: sum('rowsRead'),
      rowsLoaded: sum('rowsLoaded'),
      rowsRejected: sum('rowsRejected'),
      featureCount,
      ...geocoded,
    };
    await markReadyOf(on, row, totals, false, layerRows);
    return { layers, featureCount, rowsRejected: totals.rowsRejected };
  }

  return withFailureMapping({
    planPublish,

    /** Long-running: heartbeats its resume point and resumes from it (see load-layer.ts). */
    async loadLayer(jobId: string, layerId: number): Promise<LoadResult> {
      const row = await job(jobId);
      const plan = layerPlan(row, layerId);
      const resumed = Context.current().info.heartbeatDetails as LoadProgress | undefined;
      const persist = row.request.persistErrorRecordsForReview;
      return loadLayer(deps, jobId, row.request, plan, persist, resumed, sameFileFollows(row, plan));
    },

    finishLayer,
    markServiceReady,

    /**
     * A small file in one step: plan, load and finish every layer, then mark the service ready, so a
     * small publish waits for one activity instead of four or more. The source is read from the store
     * once. On PostgreSQL all of it is one transaction: one commit (one WAL flush) instead of a dozen,
     * and a crash or a failure leaves nothing behind, so a retry starts clean. On PGlite, whose commits
     * cost no flush, the steps commit one by one: a transaction there would hold the one connection the
     * API shares for the whole job. Each part is idempotent and the load starts from the beginning on a
     * retry (nothing to resume in a few megabytes), so the whole is.
     */
    async publishSmallFile(jobId: string): Promise<SmallPublishResult> {
      const found = await job(jobId);
      const store = readingSourceOnce(deps.store, found.request.sourceKey);
      const plan = found.plan ?? (await planOf(found, store));
      const row = { ...found, plan };
      const run = <T>(body: (on: DatabaseHandle) => Promise<T>) =>
        database.kind === 'postgres' ? database.transaction(body) : body(database);
      try {
        return await run((on) => publishSmall(on, row, store));
      } catch (e) {
        // What the publish leaves out of the source stays on the failed job for the status operation.
        if (!found.plan && plan.warnings) await storePlan(db, jobId, plan).catch(() => {});
        throw e;
      }
    },

    /** Overwrite: the staged tables replace the service's tables, and its layer rows, in one step. */
    async swapInOverwrite(jobId: string): Promise<void> {
      const row = await job(jobId);
      const plans = row.plan?.layers ?? [];
      const staged = plans.filter((p) => isStagingTable(p.tableName));
      const layers = [];
      for (const plan of plans) {
        const layer = await layerRowOf(row, plan);
        layers.push({ ...layer, tableName: targetOfStaging(plan.tableName) });
      }
      const attachments = await swapInStagedLayers(
        database,
        row.serviceItemId,
        layers,
        staged.map((p) => p.tableName),
      );
      // The replaced features' attachment files; their rows went with the swap.
      for (const key of attachments) await deps.store.remove(key);
    },

    /**
     * Completes a job whose initial tile cache was built (or failed: the feature service stands
     * either way, and the Map Service's own job keeps the cache's failure).
     */
    async finishPublishJob(jobId: string, cache: { status: string; tiles?: number; message?: string }) {
      const row = await job(jobId);
      const cacheCounts = {
        cacheStatus: cache.status,
        ...(cache.tiles !== undefined ? { tilesDone: cache.tiles } : {}),
        ...(cache.message ? { cacheMessage: cache.message } : {}),
      };
      await updateJobProgress(db, jobId, { ...row.progress, ...cacheCounts }, deps.now());
      await finishJob(db, jobId, 'completed', 'completed', deps.now());
    },

    /** Undoes a failed publish: no tables, no service, no item left; the job keeps the reason. */
    async failPublish(
      jobId: string,
      code: number,
      message: string,
      cache?: { serviceItemId: string; jobId: string },
    ): Promise<void> {
      const row = await job(jobId);
      if (row.request.overwrite) {
        // A failed overwrite drops only what it loaded: the service keeps serving its old data.
        await dropStagingTables(
          database,
          (row.plan?.layers ?? []).map((l) => l.tableName),
        );
        await finishJob(db, jobId, 'failed', JSON.stringify({ code, message }), deps.now());
        return;
      }
      if (cache) {
        // The Map Service that was to be cached from this service goes with it.
        await deleteTileCache(db, cache.serviceItemId);
        await deleteItemRow(db, cache.serviceItemId);
        await finishJob(db, cache.jobId, 'failed', JSON.stringify({ code, message }), deps.now());
      }
      for (const l of row.plan?.layers ?? []) await dropFeatureTable(database, l.tableName);
      for (const l of await listLayers(db, row.serviceItemId)) await dropFeatureTable(database, l.tableName);
      await deleteService(db, row.serviceItemId);
      await deleteItemRow(db, row.serviceItemId);
      await finishJob(db, jobId, 'failed', JSON.stringify({ code, message }), deps.now());
    },
  });
}

/** Whether a later layer of the job reads the same GeoPackage or SQLite file (its copy is kept for it). */
function sameFileFollows(row: FeatureJobRow, plan: LayerPlan): boolean {
  if (plan.source.kind !== 'sqlite') return false;
  const key = plan.source.objectKey;
  const layers = row.plan?.layers ?? [];
  const later = layers.slice(layers.findIndex((l) => l.id === plan.id) + 1);
  return later.some((l) => l.source.kind === 'sqlite' && l.source.objectKey === key);
}

function extentOf(definition: Record<string, unknown>): Bounds | null {
  const e = definition.extent as
    | { xmin?: unknown; ymin?: unknown; xmax?: unknown; ymax?: unknown }
    | undefined;
  if (!e || typeof e.xmin !== 'number') return null;
  return [e.xmin, e.ymin as number, e.xmax as number, e.ymax as number];
}

/** Item extents are [[xmin, ymin], [xmax, ymax]] in WGS84, as the portal reports them. */
function wgs84Extent(b: Bounds, sr: { wkid?: number; latestWkid?: number }): number[][] {
  const t = createTransformer(sr, { wkid: 4326 });
  const [x0, y0] = t.project(b[0], b[1]);
  const [x1, y1] = t.project(b[2], b[3]);
  return [
    [x0, y0],
    [x1, y1],
  ];
}

export type PublishActivities = ReturnType<typeof createPublishActivities>;
