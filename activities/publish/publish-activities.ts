/**
 * The publish pipeline's activities, each idempotent and keyed by job id: plan the layers from the
 * data, load each layer, finish it (indexes, counts, extent, layer resource), then mark the service
 * ready, or undo everything when the job fails. Arguments and results are ids and counts only.
 */
import { Context } from '@temporalio/activity';
import { sql } from 'drizzle-orm';
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
  listLayers,
  type NewHostedLayer,
  updateService,
  upsertLayer,
} from '../../db/repositories/services.js';
import { deleteTileCache } from '../../db/repositories/tile-caches.js';
import type { LayerPlan, PublishPlan } from '../../db/schema/publish-request.js';
import { publishJobs } from '../../db/schema/publishing.js';
import { sharedBoundaryLookup } from '../../infra/boundary-service.js';
import { badRequest, internalError } from '../../lib/errors.js';
import { unionBounds } from '../../lib/geometry/index.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { createTransformer, spatialReferenceForWkid, wkidOf } from '../../lib/projection/index.js';
import { noRowsPublishedMessage } from '../../lib/workflow-failures.js';
import { withFailureMapping } from './activity-errors.js';
import type { GeocodeCounts } from './geocoder.js';
import { buildLayerDefinition, buildServiceDefinition, editorTrackingFieldsOf } from './layer-definition.js';
import { planLayer } from './layer-plan.js';
import { sourceTables } from './layer-sources.js';
import { timeFieldsOf, timeInfoResource } from './layer-time-info.js';
import { type LoadProgress, type LoadResult, loadLayer } from './load-layer.js';
import type { PublishDeps } from './publish-deps.js';
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
  async function layerRowOf(row: FeatureJobRow, planned: LayerPlan): Promise<NewHostedLayer> {
    const tracking = editorTrackingFieldsOf(planned, row.request.service);
    // A retried swap finds the table already renamed to its target.
    const table =
      isStagingTable(planned.tableName) && !(await featureTableExists(database, planned.tableName))
        ? targetOfStaging(planned.tableName)
        : planned.tableName;
    // Text widths a GeoPackage or SQLite file leaves undeclared: the longest value loaded, measured in
    // the same scan as the count and extent (every attempt's rows are in the table).
    const measured = measuredTextFields(planned);
    const stats = await featureTableStats(
      database,
      table,
      measured.map((f) => f.column),
    );
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
    const request = row.request;
    // A GeoPackage's temporary copy is kept for the load that follows in this process.
    const tables = await sourceTables(deps.store, request, deps.parseLimits, true);
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
    const plan: PublishPlan = { layers, ...(warnings.length > 0 ? { warnings } : {}) };
    await db.update(publishJobs).set({ plan, modified: deps.now() }).where(sql`${publishJobs.id} = ${jobId}`);
    return layers.map((l) => ({ layerId: l.id, name: l.name }));
  }

  /**
   * Indexes the loaded table and writes the layer resource with its count and extent. An overwrite
   * keeps the layer row as it is: its staged table and row are swapped in with the others at once.
   */
  async function finishLayer(jobId: string, layerId: number): Promise<FinishedLayer> {
    const row = await job(jobId);
    const plan = layerPlan(row, layerId);
    await indexFeatureTable(database, plan.tableName, plan.geometryType);
    // Editor tracking: the loaded rows are credited to the publisher at the job's start.
    const tracking = editorTrackingFieldsOf(plan, row.request.service);
    await addTrackingColumns(database, plan.tableName, tracking, row.owner, row.created);
    const layer = await layerRowOf(row, plan);
    if (!row.request.overwrite) await upsertLayer(db, layer);
    return { layerId, featureCount: layer.featureCount ?? 0 };
  }

  /** Publishes the service resource and completes the job; the item gets its extent in WGS84. */
  /** `cacheFollows`: a tile cache is built next, and the job completes only after it. */
  async function markServiceReady(jobId: string, totals: JobTotals, cacheFollows = false): Promise<void> {
    const row = await job(jobId);
    const service = await findService(db, row.serviceItemId);
    if (!service) throw internalError('Unable to complete operation.', ['The service row is missing.']);
    const layers = await listLayers(db, row.serviceItemId);
    const extents = layers.map((l) => extentOf(l.definition));
    const extent = unionBounds(extents);
    const spatialReference = spatialReferenceForWkid(wkidOf(row.request.targetSR) ?? 3857);
    const definition = buildServiceDefinition({
      serviceItemId: row.serviceItemId,
      name: service.name,
      service: row.request.service,
      spatialReference,
      extent,
      layers: layers.map((l) => l.definition),
    });
    const item = await findItem(db, row.serviceItemId);
    // One transaction: the service, its item and the job become ready together (and one commit).
    await db.transaction(async (tx) => {
      await updateService(tx, row.serviceItemId, { status: 'ready', definition, modified: deps.now() });
      if (item) {
        await updateItem(tx, row.serviceItemId, {
          extent: extent ? wgs84Extent(extent, spatialReference) : null,
          spatialReference: String(spatialReference.latestWkid ?? spatialReference.wkid ?? ''),
          typeKeywords: [
            ...item.typeKeywords.filter((k) => k !== 'Singlelayer' && k !== 'Multilayer'),
            layers.length > 1 ? 'Multilayer' : 'Singlelayer',
          ],
          modified: deps.now(),
        });
      }
      await updateJobProgress(tx, jobId, { ...totals }, deps.now());
      if (!cacheFollows) await finishJob(tx, jobId, 'completed', 'completed', deps.now());
    });
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
     * small publish waits for one activity instead of four or more. Each part is idempotent and the
     * load starts from the beginning on a retry (nothing to resume in a few megabytes), so the whole is.
     */
    async publishSmallFile(jobId: string): Promise<SmallPublishResult> {
      const refs = await planPublish(jobId);
      const row = await job(jobId);
      const layers: SmallPublishResult['layers'] = [];
      const reasons: string[] = [];
      let geocoded: GeocodeCounts | undefined;
      for (const ref of refs) {
        const plan = layerPlan(row, ref.layerId);
        const persist = row.request.persistErrorRecordsForReview;
        const loaded = await loadLayer(
          deps,
          jobId,
          row.request,
          plan,
          persist,
          undefined,
          sameFileFollows(row, plan),
        );
        reasons.push(...loaded.reasons);
        if (loaded.geocoded) geocoded = addGeocodeCounts(geocoded, loaded.geocoded);
        const finished = await finishLayer(jobId, ref.layerId);
        layers.push({
          layerId: ref.layerId,
          name: ref.name,
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
      await markServiceReady(jobId, totals);
      return { layers, featureCount, rowsRejected: totals.rowsRejected };
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
