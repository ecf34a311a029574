/**
 * The append job's steps in the worker. Staging: the uploaded item read by the publish readers
 * (delimited text, workbooks, GeoJSON, zipped shapefiles, feature collections, GeoPackage/SQLite, file
 * geodatabases and the feature service of a service definition) in batches into the staging table,
 * each batch committed and heartbeated as the resume point, so memory stays flat in the source's size
 * and a retried attempt goes on from the last batch. Applying: append-apply.ts. Every step is
 * idempotent: staged rows are numbered, and the job's row fences the apply transaction.
 */
import { Context } from '@temporalio/activity';
import type { DatabaseHandle } from '../../db/client.js';
import { clearStaging, type StagedRow, stageRows } from '../../db/repositories/append-staging.js';
import { finishJob } from '../../db/repositories/service-jobs.js';
import type { LayerPlan, PublishRequest } from '../../db/schema/publish-request.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { badRequest, isGeoError } from '../../lib/errors.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';
import type {
  AppendFailure,
  AppendJobInput,
  AppendSourceInput,
  AppendStaged,
  StagingProgress,
} from '../../workflows/append-messages.js';
import { recordProgress } from '../heartbeat.js';
import { withFailureMapping } from '../publish/activity-errors.js';
import { layerBatches, type SourceTable, sourceTables } from '../publish/layer-sources.js';
import { applyStagedAppend } from './append-apply.js';

export interface AppendDeps {
  database: DatabaseHandle;
  store: ObjectStore;
  now: () => number;
}

const WGS84: SpatialReference = { wkid: 4326 };
/** Rows staged per committed batch (and per heartbeat). */
const STAGE_BATCH = 2000;

export function createAppendActivities(deps: AppendDeps) {
  const { database, store } = deps;
  return withFailureMapping({
    async stageAppendSource(input: AppendSourceInput): Promise<AppendStaged> {
      const request = publishRequestOf(input);
      const table = pickTable(await sourceTables(store, request).catch(asAppendError), input.sourceTableName);
      const xy = coordinateColumns(table.headers, input.coordinates);
      const sr = table.sourceSR ?? WGS84;
      const plan = {
        id: table.layer.id,
        name: table.layer.name,
        source: table.source,
        geometryType: table.geometryType ?? null,
      } as LayerPlan;
      const resumed = Context.current().info.heartbeatDetails as StagingProgress | undefined;
      const first = { byteOffset: table.source.kind === 'csv' ? table.source.dataOffset : 0, rowNumber: 0 };
      let staged = resumed?.staged ?? 0;
      if (resumed?.done) return { rowCount: staged, headers: table.headers, spatialReference: sr };
      const start = resumed?.next ?? first;
      let pending: StagedRow[] = [];
      const flush = async (next: StagingProgress['next'], done = false) => {
        await stageRows(database, input.jobId, staged, pending);
        staged += pending.length;
        pending = [];
        recordProgress({ staged, next, ...(done ? { done } : {}) } satisfies StagingProgress);
      };
      for await (const batch of layerBatches(store, request, plan, start)) {
        for (const [i, row] of batch.rows.entries()) {
          const record: StagedRow = { attributes: attributesOf(table.headers, row) };
          const located = batch.geometries?.[i];
          if (located && !('reason' in located)) record.geometry = { ...located, spatialReference: sr };
          else if (xy) {
            const point = pointOf(row[xy[0]], row[xy[1]]);
            if (point) record.geometry = { ...point, spatialReference: sr };
          }
          pending.push(record);
        }
        // A resume point lies between reader batches only: the rows of one go to the table together.
        if (pending.length >= STAGE_BATCH) await flush(batch.next);
      }
      await flush(start, true);
      return { rowCount: staged, headers: table.headers, spatialReference: sr };
    },

    async applyStagedAppend(input: AppendJobInput & { staged: AppendStaged }) {
      return applyStagedAppend(deps, input);
    },

    /** Ends a job the workflow could not finish; a job already ended keeps its outcome. */
    async failAppendJob({ jobId, error }: AppendFailure): Promise<void> {
      await finishJob(database.db, jobId, { status: 'Failed', error }, deps.now());
    },

    async clearAppendStaging(jobId: string): Promise<void> {
      await clearStaging(database, jobId);
    },
  });
}

export type AppendActivities = ReturnType<typeof createAppendActivities>;

/** The reader's view of the item: one layer request naming the table; nothing else of publish applies. */
function publishRequestOf(input: AppendSourceInput): PublishRequest {
  return {
    fileType: input.fileType,
    sourceKey: input.sourceKey,
    sourceSize: input.sourceSize,
    serviceName: 'append',
    sourceSR: null,
    targetSR: WGS84,
    ...(input.csv ? { csv: input.csv } : {}),
    layers: [
      {
        id: 0,
        name: input.sourceTableName ?? 'append',
        ...(input.fileType === 'excel' && input.sourceTableName ? { sheet: input.sourceTableName } : {}),
        location: { type: 'none' },
        layerInfo: {},
      },
    ],
    service: {
      description: '',
      copyrightText: '',
      maxRecordCount: 0,
      hasStaticData: false,
      capabilities: 'Query',
      hasAttachments: false,
      editorTrackingInfo: {},
      buildInitialCache: false,
      outputType: '',
    },
    persistErrorRecordsForReview: false,
  };
}

/** The publish readers' refusals of a source, titled as append's own (the details say why). */
function asAppendError(e: unknown): never {
  if (isGeoError(e) && e.code === 400 && e.message === 'Unable to publish the file.')
    throw badRequest('Unable to append.', e.details);
  throw e;
}

function pickTable(tables: SourceTable[], name: string | undefined): SourceTable {
  if (tables.length === 0) throw badRequest('Unable to append.', ['The source holds no table.']);
  if (name === undefined) return tables[0];
  const wanted = name.toLowerCase();
  const found =
    tables.find((t) => t.layer.name.toLowerCase() === wanted) ??
    (tables.length === 1 ? tables[0] : undefined);
  if (!found)
    throw badRequest('Unable to append.', [
      `The source has no table '${name}'; it has ${tables.map((t) => `'${t.layer.name}'`).join(', ')}.`,
    ]);
  return found;
}

function coordinateColumns(
  headers: string[],
  coordinates: AppendSourceInput['coordinates'],
): [number, number] | null {
  if (!coordinates) return null;
  const index = (name: string) => {
    const i = headers.findIndex((h) => h.toLowerCase() === name.toLowerCase());
    if (i < 0)
      throw badRequest('Unable to append.', [
        `appendSourceInfo names '${name}', which the source does not have.`,
      ]);
    return i;
  };
  return [index(coordinates.xField), index(coordinates.yField)];
}

function cellValue(v: CellValue): string | number | boolean | null {
  if (v === undefined || v === null || v === '') return null;
  if (v instanceof Date) return v.getTime();
  return v;
}

function attributesOf(headers: string[], row: CellValue[]): StagedRow['attributes'] {
  const out: StagedRow['attributes'] = {};
  headers.forEach((h, i) => {
    out[h] = cellValue(row[i]);
  });
  return out;
}

function pointOf(x: CellValue, y: CellValue): { x: number; y: number } | null {
  const nx = typeof x === 'number' ? x : Number(String(x ?? '').trim() || Number.NaN);
  const ny = typeof y === 'number' ? y : Number(String(y ?? '').trim() || Number.NaN);
  return Number.isFinite(nx) && Number.isFinite(ny) ? { x: nx, y: ny } : null;
}
