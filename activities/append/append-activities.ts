/**
 * The append job's reading step: the uploaded item read by the publish readers (delimited text,
 * workbooks, GeoJSON, zipped shapefiles, feature collections) into source rows, written as one JSON
 * object under the job's key. Rerunning writes the same object, so a retry is harmless.
 */
import type { LayerPlan, PublishRequest } from '../../db/schema/publish-request.js';
import type { ObjectStore } from '../../infra/object-store.js';
import { badRequest } from '../../lib/errors.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';
import type { AppendRecord, AppendSourceInput, AppendSourceResult } from '../../workflows/append-messages.js';
import { withFailureMapping } from '../publish/activity-errors.js';
import { layerBatches, type SourceTable, sourceTables } from '../publish/layer-sources.js';

export interface AppendDeps {
  store: ObjectStore;
}

const WGS84: SpatialReference = { wkid: 4326 };
/** Read whole in memory by their readers: refused here, as append holds every row of the source. */
const NOT_READ = new Set(['sqlite', 'fileGeodatabase', 'serviceDefinition']);

export const appendRowsKey = (jobId: string): string => `append/${jobId}/rows.json`;

export function createAppendActivities({ store }: AppendDeps) {
  return withFailureMapping({
    async readAppendSource(input: AppendSourceInput): Promise<AppendSourceResult> {
      if (NOT_READ.has(input.fileType))
        throw badRequest('Unable to append.', [
          `Appending from ${input.fileType} items is not supported; append from csv, excel, geojson, shapefile or featureCollection items.`,
        ]);
      const request = publishRequestOf(input);
      const table = pickTable(await sourceTables(store, request), input.sourceTableName);
      const xy = coordinateColumns(table.headers, input.coordinates);
      const sr = table.sourceSR ?? WGS84;
      const plan = { id: table.layer.id, name: table.layer.name, source: table.source } as LayerPlan;
      const start = { byteOffset: table.source.kind === 'csv' ? table.source.dataOffset : 0, rowNumber: 0 };
      const records: AppendRecord[] = [];
      for await (const batch of layerBatches(store, request, plan, start)) {
        for (const [i, row] of batch.rows.entries()) {
          if (records.length >= input.maxRows)
            throw badRequest('Unable to append.', [
              `The source has more than ${input.maxRows} rows, the most one append takes.`,
            ]);
          const record: AppendRecord = { attributes: attributesOf(table.headers, row) };
          const located = batch.geometries?.[i];
          if (located && !('reason' in located)) record.geometry = { ...located, spatialReference: sr };
          else if (xy) {
            const point = pointOf(row[xy[0]], row[xy[1]]);
            if (point) record.geometry = { ...point, spatialReference: sr };
          }
          records.push(record);
        }
      }
      const rowsKey = appendRowsKey(input.jobId);
      const body = Buffer.from(JSON.stringify(records), 'utf8');
      await store.put(rowsKey, body, body.length, 'application/json');
      return { rowsKey, rowCount: records.length, headers: table.headers, spatialReference: sr };
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

function attributesOf(headers: string[], row: CellValue[]): AppendRecord['attributes'] {
  const out: AppendRecord['attributes'] = {};
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
