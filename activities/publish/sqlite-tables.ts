/**
 * A GeoPackage or SQLite publish source as the planner and loader see it: one SourceTable per
 * feature or attribute table (layers the request lists, or all of them), and the batches of one.
 */
import { setImmediate } from 'node:timers/promises';
import type { LayerPlan, PublishRequest } from '../../db/schema/publish-request.js';
import type { OpenedSqlite } from '../../infra/readers/sqlite-pages.js';
import { badRequest } from '../../lib/errors.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { proj4ForWkid } from '../../lib/projection/index.js';
import type { CopyBinaryWriter } from './copy-binary.js';
import type { SourceBatch, SourceTable } from './layer-sources.js';
import type { RowEncoder } from './row-encoder.js';
import {
  describeSqlite,
  openSqlite,
  reading,
  type SqliteDatabase,
  type SqliteLayer,
  tableLayout,
} from './sqlite-catalog.js';
import {
  type BatchShare,
  type EncodedPiece,
  layerGeometryType,
  sqliteBatches,
  sqliteGeometryBounds,
  sqliteRecordBatches,
} from './sqlite-source.js';
import { checkListedTables, tableRequest } from './table-requests.js';

export interface SqliteTable extends SourceTable {
  described: SqliteLayer;
  /** Rows of the table, counted when measured (analyze). */
  count?: number;
}

function spatialReferenceOf(layer: SqliteLayer, fallback: SpatialReference | null): SpatialReference {
  if (layer.wkid === null) return fallback ?? { wkid: 4326 };
  if (!proj4ForWkid(layer.wkid))
    throw badRequest('Unable to publish the file.', [
      `Layer ${layer.name} uses EPSG:${layer.wkid}, a spatial reference this server cannot project.`,
    ]);
  return { wkid: layer.wkid };
}

/**
 * Every table of the database to publish, with up to `sampleRows` rows each. `measure` (analyze)
 * reads every row for the row count and the widths of text columns declared without one; a publish
 * leaves those widths to the load (the plan's `measuredText`, see describeSqlite).
 */
export async function sqliteSourceTables(
  db: SqliteDatabase,
  request: PublishRequest,
  sampleRows: number,
  objectKey?: string,
  measure = false,
): Promise<SqliteTable[]> {
  const described = await describeSqlite(db, { measure });
  checkListedTables(request, described.length);
  const out: SqliteTable[] = [];
  described.forEach((layer, index) => {
    const layerRequest = tableRequest(request, index, layer.name, described.length);
    if (!layerRequest) return;
    const geometryType = layerGeometryType(db, layer);
    const source = {
      kind: 'sqlite' as const,
      ...(objectKey ? { objectKey } : {}),
      table: layer.table,
      key: layer.key,
      columns: layer.fields.map((f) => f.column),
      geometryColumn: geometryType ? layer.geometryColumn : null,
      geometryFormat: layer.geometryFormat,
      ...(geometryType ? { hasZ: layer.hasZ, hasM: layer.hasM } : {}),
      ...(!measure && layer.unsized.length > 0 ? { measuredText: layer.unsized } : {}),
      // A large file's row count tells the load how to cut its table into parts (load-layer.ts
      // partBoundsFor; the last part takes whatever is past the others): estimated from the table's
      // interior pages and a few leaves, where counting every leaf read the whole file on the activity's
      // thread (0.1-0.4 s for a million-row GeoPackage).
      ...(!measure && request.sourceSize >= COUNTED_MIN_BYTES
        ? { rows: layer.count ?? reading(() => db.file.estimatedCount(tableLayout(db, layer.table).root)) }
        : {}),
    };
    const first = sqliteBatches(db, source, geometryType, { byteOffset: 0, rowNumber: 0 }, sampleRows).next();
    out.push({
      layer: layerRequest,
      headers: source.columns,
      sampleRows: first.done ? [] : first.value.rows,
      geometryType,
      declaredFields: layer.fields.map((f) => ({
        ...(f.alias ? { alias: f.alias } : {}),
        type: f.type,
        ...(f.length ? { length: f.length } : {}),
        nullable: f.nullable,
        ...(f.domain ? { domain: f.domain } : {}),
      })),
      source,
      decimalComma: false,
      wgs84Geometry: false,
      sourceSR: spatialReferenceOf(layer, request.sourceSR),
      described: layer,
      ...(layer.count !== undefined ? { count: layer.count } : {}),
    });
  });
  return out;
}

/** From this size a publish counts each table's rows when planning (those load on threads, in parts). */
const COUNTED_MIN_BYTES = 4 * 1024 * 1024;

/** The extent of a table's geometries in its own spatial reference (analyze reads every row once). */
export async function sqliteExtent(db: SqliteDatabase, table: SqliteTable): Promise<Bounds | null> {
  if (table.source.kind !== 'sqlite' || !table.geometryType) return null;
  const bounds = sqliteGeometryBounds(db, table.source, table.geometryType);
  for (let r = bounds.next(); ; r = bounds.next()) {
    if (r.done) return r.value;
    await setImmediate(); // a batch's worth of records at a time, so the API answers other requests meanwhile
  }
}

/** Batches of a planned sqlite layer from its resume point. */
export async function* sqliteLayerBatches(
  open: () => OpenedSqlite,
  plan: LayerPlan,
  start: { byteOffset: number; rowNumber: number },
  share?: BatchShare,
  /** Batches in pieces of this many rows (sqliteBatches). */
  pieceRows?: number,
): AsyncGenerator<SourceBatch & { partial?: boolean }> {
  if (plan.source.kind !== 'sqlite') return;
  const db = await openSqlite(open);
  try {
    yield* sqliteBatches(db, plan.source, plan.geometryType, start, undefined, share, pieceRows);
  } finally {
    db.close();
  }
}

/** `sqliteLayerBatches` encoded as read (sqliteRecordBatches) by `encoder` into `into()`. */
export async function* sqliteLayerRecords(
  open: () => OpenedSqlite,
  plan: LayerPlan,
  start: { byteOffset: number; rowNumber: number },
  encoder: RowEncoder,
  into: () => CopyBinaryWriter,
  share?: BatchShare,
  pieceRows?: number,
): AsyncGenerator<EncodedPiece> {
  if (plan.source.kind !== 'sqlite') return;
  const db = await openSqlite(open);
  try {
    yield* sqliteRecordBatches(
      db,
      plan.source,
      plan.geometryType,
      start,
      encoder,
      into,
      undefined,
      share,
      pieceRows,
    );
  } finally {
    db.close();
  }
}
