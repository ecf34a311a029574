/**
 * Rows of one table of a GeoPackage or SQLite database, in batches. sql.js holds the database in
 * memory (SQLITE_MAX_BYTES bounds it; it is opened in the worker, and by analyze), but rows are
 * read through one statement in key order, so a batch is the only part turned into JavaScript
 * values. The resume point is the last key read: a retried load continues after it.
 */

import type { Database, SqlValue } from 'sql.js';
import { badRequest } from '../../lib/errors.js';
import type { GeoJSONGeometry } from '../../lib/geometry/geojson-types.js';
import { geoJSONToEsri } from '../../lib/geometry/index.js';
import type { EsriGeometryType } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';
import { decodeGeoPackageGeometry, decodeSpatialiteGeometry } from '../../lib/ingest/sqlite-geometry.js';
import { type DecodedGeometry, decodeWkb } from '../../lib/ingest/wkb-geometry.js';
import { GEOMETRY_KIND } from './feature-source.js';
import type { Located, ResumePoint, SourceBatch } from './layer-sources.js';
import { esriTypeOfBase, type GeometryFormat, quoted, rows, type SqliteLayer } from './sqlite-catalog.js';

export const SQLITE_BATCH_ROWS = 2000;

const DECODERS: Record<GeometryFormat, (b: Uint8Array) => DecodedGeometry> = {
  gpkg: decodeGeoPackageGeometry,
  spatialite: decodeSpatialiteGeometry,
  wkb: decodeWkb,
};

/** The source geometry of a cell, or why it cannot be read. */
export function decodeCell(
  value: SqlValue,
  format: GeometryFormat,
): GeoJSONGeometry | null | { reason: string } {
  if (value === null) return null;
  if (!(value instanceof Uint8Array)) return { reason: 'The geometry is not a binary value.' };
  try {
    return DECODERS[format](value).geometry;
  } catch (e) {
    return { reason: `The geometry cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** A decoded geometry as the layer stores it, or why it cannot be stored there. */
export function locate(
  g: GeoJSONGeometry | null | { reason: string },
  layerType: EsriGeometryType | null,
): Located {
  if (g === null) return null;
  if ('reason' in g) return g;
  const kind = GEOMETRY_KIND[g.type];
  if (!kind) return { reason: `Geometry type ${g.type} is not supported in a feature layer.` };
  if (kind !== layerType) return { reason: `A ${g.type} cannot be stored in a ${layerType} layer.` };
  return geoJSONToEsri(g);
}

/** The layer's geometry type: the declared one, else the kind most of the first rows have. */
export function layerGeometryType(db: Database, layer: SqliteLayer, sample = 1000): EsriGeometryType | null {
  if (!layer.geometryColumn) return null;
  const declared = esriTypeOfBase(layer.geometryBase);
  if (declared) return declared;
  const counts = new Map<EsriGeometryType, number>();
  const sql = `SELECT ${quoted(layer.geometryColumn)} FROM ${quoted(layer.table)} WHERE ${quoted(layer.geometryColumn)} IS NOT NULL LIMIT ${sample}`;
  for (const [value] of rows(db, sql)) {
    const g = decodeCell(value, layer.geometryFormat);
    const kind = g && !('reason' in g) ? GEOMETRY_KIND[g.type] : undefined;
    if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** An attribute cell as the loader reads it: dates stay ISO text, binary values become hex. */
const cell = (v: SqlValue): CellValue => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v);

/** Batches of rows (and geometries) from after `start.byteOffset`'s key, `start.rowNumber` rows in. */
export function* sqliteBatches(
  db: Database,
  layer: Pick<SqliteLayer, 'table' | 'key' | 'geometryColumn' | 'geometryFormat'> & { columns: string[] },
  geometryType: EsriGeometryType | null,
  start: ResumePoint,
  size = SQLITE_BATCH_ROWS,
): Generator<SourceBatch> {
  const select = [layer.key, ...layer.columns, ...(layer.geometryColumn ? [layer.geometryColumn] : [])]
    .map(quoted)
    .join(', ');
  const resume = start.rowNumber > 0;
  const sql = `SELECT ${select} FROM ${quoted(layer.table)}${resume ? ` WHERE ${quoted(layer.key)} > ?` : ''} ORDER BY ${quoted(layer.key)}`;
  const damaged = (e: unknown) =>
    badRequest('Unable to read the file.', [
      `The database is damaged: ${e instanceof Error ? e.message : String(e)}`,
    ]);
  let stmt: ReturnType<Database['prepare']>;
  try {
    stmt = db.prepare(sql, resume ? [start.byteOffset] : []);
  } catch (e) {
    throw damaged(e);
  }
  const step = () => {
    try {
      return stmt.step();
    } catch (e) {
      throw damaged(e);
    }
  };
  const n = layer.columns.length;
  const spatial = layer.geometryColumn !== null;
  let rowNumber = start.rowNumber;
  let batch: SourceBatch = empty(rowNumber, start.byteOffset, spatial);
  try {
    while (step()) {
      const values = stmt.get();
      const row: CellValue[] = new Array(n);
      for (let i = 0; i < n; i++) row[i] = cell(values[i + 1]);
      batch.rows.push(row);
      if (layer.geometryColumn)
        batch.geometries?.push(locate(decodeCell(values[n + 1], layer.geometryFormat), geometryType));
      rowNumber++;
      batch.next = { byteOffset: Number(values[0]), rowNumber };
      if (batch.rows.length >= size) {
        yield batch;
        batch = empty(rowNumber, batch.next.byteOffset, spatial);
      }
    }
    if (batch.rows.length > 0) yield batch;
  } finally {
    stmt.free();
  }
}

const empty = (rowNumber: number, key: number, spatial: boolean): SourceBatch => ({
  rows: [],
  ...(spatial ? { geometries: [] } : {}),
  firstRowNumber: rowNumber,
  next: { byteOffset: key, rowNumber },
});
