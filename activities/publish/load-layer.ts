/**
 * Loads one layer: source batches → (geocode) → rows checked and projected → COPY into the feature
 * table, one transaction per batch. After each batch it heartbeats the resume point; a retry (the
 * worker died, the database dropped) deletes whatever came after that point and carries on, so the
 * table ends with exactly one row per usable source row.
 */
import { Context } from '@temporalio/activity';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  deleteRowsAfter,
  featureTableExists,
} from '../../db/repositories/feature-tables.js';
import { type ErrorRecord, insertErrorRecords, updateJobProgress } from '../../db/repositories/jobs.js';
import type { LayerPlan, PublishRequest } from '../../db/schema/publish-request.js';
import { sharedBoundaryLookup } from '../../infra/boundary-service.js';
import { WGS84 } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';
import { lookupOf, lookupRows } from './boundary-lookup-rows.js';
import { type GeocodeCounts, geocodeRows } from './geocoder.js';
import { layerBatches, type ResumePoint } from './layer-sources.js';
import type { PublishDeps } from './publish-deps.js';
import { createRemoteGeocoder, remoteGeocodeService } from './remote-geocoder.js';
import { createRowEncoder } from './row-encoder.js';

export interface LoadProgress extends ResumePoint {
  rowsLoaded: number;
  rowsRejected: number;
  /** The first few reasons rows were rejected, for the status message. */
  reasons: string[];
  /** Address layers: rows matched, tied and unmatched so far (part of the resume point). */
  geocoded?: GeocodeCounts;
}

export interface LoadResult {
  rowsRead: number;
  rowsLoaded: number;
  rowsRejected: number;
  reasons: string[];
  geocoded?: GeocodeCounts;
}

const PROGRESS_EVERY_MS = 1000;

export async function loadLayer(
  deps: PublishDeps,
  jobId: string,
  request: PublishRequest,
  plan: LayerPlan,
  persistErrors: boolean,
): Promise<LoadResult> {
  const { database, store } = deps;
  const ctx = Context.current();
  const resumed = ctx.info.heartbeatDetails as LoadProgress | undefined;
  let progress: LoadProgress;
  if (resumed && (await featureTableExists(database, plan.tableName))) {
    progress = resumed;
    await deleteRowsAfter(database, plan.tableName, progress.rowNumber);
  } else {
    await createFeatureTable(
      database,
      plan.tableName,
      plan.fields.map((f) => ({ name: f.name, column: f.column, type: f.type })),
    );
    const start = plan.source.kind === 'csv' ? plan.source.dataOffset : 0;
    progress = { byteOffset: start, rowNumber: 0, rowsLoaded: 0, rowsRejected: 0, reasons: [] };
    ctx.heartbeat(progress);
  }
  const columns = copyColumns(plan.fields.map((f) => ({ name: f.name, column: f.column, type: f.type })));
  const lookup = lookupOf(plan);
  const boundaries = lookup ? await (deps.boundaries ?? sharedBoundaryLookup)() : undefined;
  const geometrySR = plan.location.type === 'address' || lookup ? WGS84 : plan.sourceSR;
  const remote = remoteGeocodeService(plan.location);
  const geocoder = remote ? createRemoteGeocoder(remote) : deps.geocoder;
  const encoder = createRowEncoder(plan, request.targetSR, geometrySR);
  let lastReport = 0;
  // One COPY in flight while the next batch is parsed: PostgreSQL and this loop use a core each.
  // A batch's progress is heartbeated only once its COPY has committed.
  let inFlight: Promise<unknown> | null = null;
  let afterInFlight: LoadProgress = progress;
  const settle = async () => {
    if (!inFlight) return;
    const failure = await inFlight;
    inFlight = null;
    if (failure) throw failure;
    ctx.heartbeat(afterInFlight);
    const now = deps.now();
    if (now - lastReport >= PROGRESS_EVERY_MS) {
      lastReport = now;
      await updateJobProgress(
        database.db,
        jobId,
        {
          layerId: plan.id,
          rowsRead: afterInFlight.rowNumber,
          rowsLoaded: afterInFlight.rowsLoaded,
          rowsRejected: afterInFlight.rowsRejected,
        },
        now,
      );
    }
  };
  for await (const batch of layerBatches(store, request, plan, progress)) {
    if (ctx.cancellationSignal.aborted) throw ctx.cancellationSignal.reason;
    let geometries = batch.geometries;
    let geocoded = progress.geocoded;
    let tied: ErrorRecord[] = [];
    if (plan.location.type === 'address' || (lookup && boundaries)) {
      const result =
        lookup && boundaries
          ? lookupRows(boundaries, lookup, batch.rows)
          : await geocodeRows(
              geocoder,
              plan.location as Extract<LayerPlan['location'], { type: 'address' }>,
              plan.headers,
              batch.rows,
              batch.firstRowNumber,
            );
      geometries = result.geometries;
      tied = tiedRecords(plan.id, batch.rows, batch.firstRowNumber, result.tiedRows);
      const before = geocoded ?? { matched: 0, tied: 0, unmatched: 0 };
      geocoded = {
        matched: before.matched + result.counts.matched,
        tied: before.tied + result.counts.tied,
        unmatched: before.unmatched + result.counts.unmatched,
      };
    }
    const encoded = encoder.encode(batch.rows, batch.firstRowNumber, geometries);
    await settle();
    const reasons =
      progress.reasons.length < 5
        ? [
            ...progress.reasons,
            ...encoded.rejected
              .slice(0, 5 - progress.reasons.length)
              .map((r) => `Row ${r.rowNumber}: ${r.reason}`),
          ]
        : progress.reasons;
    progress = {
      ...batch.next,
      rowsLoaded: progress.rowsLoaded + encoded.loaded,
      rowsRejected: progress.rowsRejected + encoded.rejected.length,
      reasons,
      ...(geocoded ? { geocoded } : {}),
    };
    afterInFlight = progress;
    // The failure is caught at once (and rethrown by settle) so it is never an unhandled rejection.
    inFlight = (async () => {
      await copyRows(database, plan.tableName, columns, encoded.text);
      if (persistErrors) await insertErrorRecords(database.db, jobId, [...encoded.rejected, ...tied]);
    })().then(
      () => null,
      (e: unknown) => e ?? new Error('COPY failed'),
    );
  }
  await settle();
  return {
    rowsRead: progress.rowNumber,
    rowsLoaded: progress.rowsLoaded,
    rowsRejected: progress.rowsRejected,
    reasons: progress.reasons,
    ...(progress.geocoded ? { geocoded: progress.geocoded } : {}),
  };
}

export const TIED_REASON =
  'The address matched more than one candidate equally well; it was published at the best of them.';

/** Tied rows still publish, and are also kept for review with the reason that says so. */
function tiedRecords(
  layerId: number,
  rows: readonly CellValue[][],
  firstRowNumber: number,
  tiedRows: readonly number[],
): ErrorRecord[] {
  return tiedRows.map((i) => ({
    layerId,
    rowNumber: firstRowNumber + i + 1,
    reason: TIED_REASON,
    record: rows[i].map((v) => (v instanceof Date ? v.toISOString() : (v ?? null))),
  }));
}
