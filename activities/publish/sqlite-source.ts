/**
 * Rows of one table of a GeoPackage or SQLite database, in batches, read from the file page by page
 * in key (rowid) order by the streaming decoder, so a batch is the only part held as JavaScript
 * values. The resume point is the last key read: a retried load seeks past it through the B-tree.
 */

import type { SqlValue } from 'sql.js';
import { badRequest } from '../../lib/errors.js';
import { geometryBounds } from '../../lib/geometry/bounds.js';
import type { GeoJSONGeometry } from '../../lib/geometry/geojson-types.js';
import { type Dimensions, fitGeoJSON, geoJSONToEsri, pointOf, XY } from '../../lib/geometry/index.js';
import type { Bounds, EsriGeometryType } from '../../lib/geometry/types.js';
import type { CellValue } from '../../lib/ingest/index.js';
import type { RecordCells } from '../../lib/ingest/sqlite-file.js';
import {
  decodeGeoPackageGeometry,
  decodeSpatialiteGeometry,
  geoPackagePointAt,
  geoPackagePointXY,
} from '../../lib/ingest/sqlite-geometry.js';
import { type DecodedGeometry, decodeWkb } from '../../lib/ingest/wkb-geometry.js';
import type { CopyBinaryWriter } from './copy-binary.js';
import { GEOMETRY_KIND } from './feature-source.js';
import type { Located, ResumePoint, SourceBatch } from './layer-sources.js';
import type { RowEncoder } from './row-encoder.js';
import {
  esriTypeOfBase,
  type GeometryFormat,
  reading,
  type SqliteDatabase,
  type SqliteLayer,
  tableLayout,
} from './sqlite-catalog.js';

/** About the CSV path's 2 MiB batches: one COPY (and one commit) per batch. */
export const SQLITE_BATCH_ROWS = 20_000;

const DECODERS: Record<GeometryFormat, (b: Uint8Array) => DecodedGeometry> = {
  gpkg: decodeGeoPackageGeometry,
  spatialite: decodeSpatialiteGeometry,
  wkb: decodeWkb,
};

/**
 * The source geometry of a cell with its positions in the layer's layout (z, m: the blob's where it
 * has them, 0 and NaN where the layer has them and the blob not), or why it cannot be read.
 */
export function decodeCell(
  value: SqlValue,
  format: GeometryFormat,
  layout: Dimensions = XY,
): GeoJSONGeometry | null | { reason: string } {
  if (value === null) return null;
  if (!(value instanceof Uint8Array)) return { reason: 'The geometry is not a binary value.' };
  try {
    const decoded = DECODERS[format](value);
    return decoded.geometry && fitGeoJSON(decoded.geometry, decoded, layout);
  } catch (e) {
    return { reason: `The geometry cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** A decoded geometry as the layer stores it, or why it cannot be stored there. */
export function locate(
  g: GeoJSONGeometry | null | { reason: string },
  layerType: EsriGeometryType | null,
  layout: Dimensions = XY,
): Located {
  if (g === null) return null;
  if ('reason' in g) return g;
  const kind = GEOMETRY_KIND[g.type];
  if (!kind) return { reason: `Geometry type ${g.type} is not supported in a feature layer.` };
  if (kind !== layerType) return { reason: `A ${g.type} cannot be stored in a ${layerType} layer.` };
  // geoJSONToEsri reads a point's third ordinate as z; in an XYM layout it is the m.
  return g.type === 'Point' ? pointOf(g.coordinates, layout) : geoJSONToEsri(g);
}

/** The layer's geometry type: the declared one, else the kind most of the first rows have. */
export function layerGeometryType(
  db: SqliteDatabase,
  layer: SqliteLayer,
  sample = 1000,
): EsriGeometryType | null {
  if (!layer.geometryColumn) return null;
  const declared = esriTypeOfBase(layer.geometryBase);
  if (declared) return declared;
  const counts = new Map<EsriGeometryType, number>();
  const layout = tableLayout(db, layer.table);
  const at = layout.position.get(layer.geometryColumn) ?? -1;
  let seen = 0;
  reading(() => {
    for (const { values } of db.file.rows(layout.root)) {
      const value = at >= 0 && at < values.length ? values[at] : null;
      if (value === null) continue;
      const g = decodeCell(value, layer.geometryFormat);
      const kind = g && !('reason' in g) ? GEOMETRY_KIND[g.type] : undefined;
      if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
      if (++seen >= sample) break;
    }
  });
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** An attribute cell as the loader reads it: dates stay ISO text, binary values become hex. */
const cell = (v: SqlValue): CellValue => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v);

/** The table's layout and the record position of a column (refused if absent), its key checked to be the rowid. */
function keyedLayout(db: SqliteDatabase, layer: Pick<SqliteLayer, 'table' | 'key'>) {
  const layout = tableLayout(db, layer.table);
  const positionOf = (column: string) => {
    const at = layout.position.get(column);
    if (at === undefined)
      throw badRequest('Unable to read the file.', [`The table ${layer.table} has no column ${column}.`]);
    return at;
  };
  if (layer.key !== 'rowid' && positionOf(layer.key) !== -1)
    throw badRequest('Unable to read the file.', [`${layer.key} is not the rowid of ${layer.table}.`]);
  return { layout, positionOf };
}

/**
 * One of `parts` readers of a table, each decoding every `parts`-th batch: batch k (counting from the
 * start) is part k mod `parts`'s. The batches, their rows and resume points are those one reader gives.
 */
export interface BatchShare {
  part: number;
  parts: number;
}

/** What the readers below read of a planned SQLite layer. */
type SqliteReadLayer = Pick<SqliteLayer, 'table' | 'key' | 'geometryColumn' | 'geometryFormat'> & {
  columns: string[];
  /** The layer's z and m (absent: x/y only, as plans made before z and m were kept). */
  hasZ?: boolean;
  hasM?: boolean;
};

/**
 * Batches of rows (and geometries) from after `start.byteOffset`'s key, `start.rowNumber` rows in; with
 * `share`, only that part's batches (the other rows are counted, not decoded).
 */
export function* sqliteBatches(
  db: SqliteDatabase,
  layer: SqliteReadLayer,
  geometryType: EsriGeometryType | null,
  start: ResumePoint,
  size = SQLITE_BATCH_ROWS,
  share: BatchShare = { part: 0, parts: 1 },
  /**
   * Batches come in pieces of at most this many rows (`partial` on all but a batch's last): a reader
   * that encodes each piece as it comes holds fewer rows' objects at a time, so fewer outlive a young
   * collection. Resume points are only those of whole batches.
   */
  pieceRows = size,
): Generator<SourceBatch & { partial?: boolean }> {
  const { layout, positionOf } = keyedLayout(db, layer);
  const positions = layer.columns.map(positionOf);
  const geometryAt = layer.geometryColumn ? positionOf(layer.geometryColumn) : null;
  const { defaultOf } = layout;
  // A row's first `count` values are its record's (rowsWhere reuses one array for every row).
  const valueAt = (values: SqlValue[], count: number, rowid: number, at: number): SqlValue =>
    at < 0 ? rowid : at < count ? values[at] : defaultOf(at);
  const n = positions.length;
  const spatial = geometryAt !== null;
  const dims: Dimensions = { hasZ: layer.hasZ === true, hasM: layer.hasM === true };
  // A two-dimensional GeoPackage point layer: most blobs are read by the point reader, as locate reads them.
  const plainPoints =
    layer.geometryFormat === 'gpkg' && geometryType === 'esriGeometryPoint' && !dims.hasZ && !dims.hasM;
  const { part, parts } = share;
  const wanted = (index: number) => Math.floor(index / size) % parts === part;
  const rowsAfter = db.file.rowsWhere(
    layout.root,
    start.rowNumber > 0 ? start.byteOffset : Number.NEGATIVE_INFINITY,
    wanted,
  );
  const next = () => reading(() => rowsAfter.next());
  let rowNumber = start.rowNumber;
  let batch: SourceBatch | null = null;
  /** The last piece given, while its batch has not ended. */
  let piece: SourceBatch | null = null;
  for (let r = next(); !r.done; r = next()) {
    if (typeof r.value === 'number') {
      // Another part's rows.
      rowNumber += r.value;
      continue;
    }
    const { rowid, values, count } = r.value;
    batch ??= empty(rowNumber, spatial);
    const row: CellValue[] = new Array(n);
    for (let i = 0; i < n; i++) row[i] = cell(valueAt(values, count, rowid, positions[i]));
    batch.rows.push(row);
    if (geometryAt !== null) {
      const value = valueAt(values, count, rowid, geometryAt);
      const point = plainPoints && value instanceof Uint8Array ? geoPackagePointXY(value) : undefined;
      batch.geometries?.push(
        point ?? locate(decodeCell(value, layer.geometryFormat, dims), geometryType, dims),
      );
    }
    rowNumber++;
    batch.next = { byteOffset: rowid, rowNumber };
    // A batch ends on a multiple of `size` rows from the start, so every part cuts the same batches.
    if ((rowNumber - start.rowNumber) % size === 0) {
      yield batch;
      batch = null;
      piece = null;
    } else if (batch.rows.length === pieceRows) {
      piece = batch;
      yield { ...batch, partial: true };
      batch = null;
    }
  }
  if (batch) yield batch;
  // The table ended with a piece: its batch ends, with no more rows, where that piece did.
  else if (piece) {
    yield { ...empty(rowNumber, spatial), next: piece.next };
  }
}

const empty = (rowNumber: number, spatial: boolean): SourceBatch => ({
  rows: [],
  ...(spatial ? { geometries: [] } : {}),
  firstRowNumber: rowNumber,
  next: { byteOffset: 0, rowNumber },
});

/**
 * The bounds of a table's geometries, as those of `sqliteBatches`' geometries (analyze's extent), read
 * record by record where each lies: a two-dimensional GeoPackage point in place, other geometries
 * decoded. Yields (nothing) after every `every` records, so that a caller can let other work run;
 * returns the bounds (null: no geometry with any).
 */
export function* sqliteGeometryBounds(
  db: SqliteDatabase,
  layer: SqliteReadLayer,
  geometryType: EsriGeometryType,
  every = SQLITE_BATCH_ROWS,
): Generator<undefined, Bounds | null> {
  if (!layer.geometryColumn) return null;
  const { layout, positionOf } = keyedLayout(db, layer);
  const { file } = db;
  const at = positionOf(layer.geometryColumn);
  const dims: Dimensions = { hasZ: layer.hasZ === true, hasM: layer.hasM === true };
  const plainPoints =
    layer.geometryFormat === 'gpkg' && geometryType === 'esriGeometryPoint' && !dims.hasZ && !dims.hasM;
  const xy = new Float64Array(2);
  let xmin = Number.POSITIVE_INFINITY;
  let ymin = Number.POSITIVE_INFINITY;
  let xmax = Number.NEGATIVE_INFINITY;
  let ymax = Number.NEGATIVE_INFINITY;
  const records = file.recordsWhere(layout.root, Number.NEGATIVE_INFINITY, () => true);
  const next = () => reading(() => records.next());
  let n = 0;
  for (let r = next(); !r.done; r = next()) {
    const record = r.value;
    if (typeof record === 'number') continue;
    if (++n % every === 0) yield;
    const t = at >= 0 && at < record.count ? record.types[at] : -1;
    if (
      plainPoints &&
      t >= 12 &&
      t % 2 === 0 &&
      geoPackagePointAt(record.bytes, record.starts[at], (t - 12) / 2, xy)
    ) {
      const x = xy[0];
      const y = xy[1];
      // As geometryBounds takes a point: one with a coordinate that is not a number has none.
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < xmin) xmin = x;
      if (y < ymin) ymin = y;
      if (x > xmax) xmax = x;
      if (y > ymax) ymax = y;
      continue;
    }
    const value = at < 0 ? record.rowid : at < record.count ? file.value(record, at) : layout.defaultOf(at);
    const point = plainPoints && value instanceof Uint8Array ? geoPackagePointXY(value) : undefined;
    const g = point ?? locate(decodeCell(value, layer.geometryFormat, dims), geometryType, dims);
    if (!g || 'reason' in g) continue;
    const b = geometryBounds(g);
    if (!b) continue;
    if (b[0] < xmin) xmin = b[0];
    if (b[1] < ymin) ymin = b[1];
    if (b[2] > xmax) xmax = b[2];
    if (b[3] > ymax) ymax = b[3];
  }
  return xmin <= xmax ? [xmin, ymin, xmax, ymax] : null;
}

/** A piece of `sqliteRecordBatches`: its rows went to the writer; `next` as sqliteBatches' batches. */
export interface EncodedPiece {
  rows: number;
  loaded: number;
  rejected: ReturnType<ReturnType<RowEncoder['recordWriter']>['take']>['rejected'];
  firstRowNumber: number;
  next: ResumePoint;
  partial?: boolean;
  /** The box around the piece's written boxes, and its longest measured values (RecordWriter.take). */
  bounds: Bounds | null;
  longest: number[];
}

/**
 * `sqliteBatches`' batches (the same rows, pieces and resume points), each record encoded as it is
 * read, straight from the page, by `encoder`'s record writer into the writer `into()` answers at that
 * moment: no row array, cell string or point object is made for the common record (ASCII text,
 * numbers, a GeoPackage point), only for cells the writer cannot take from the bytes.
 */
export function* sqliteRecordBatches(
  db: SqliteDatabase,
  layer: SqliteReadLayer,
  geometryType: EsriGeometryType | null,
  start: ResumePoint,
  encoder: RowEncoder,
  into: () => CopyBinaryWriter,
  size = SQLITE_BATCH_ROWS,
  share: BatchShare = { part: 0, parts: 1 },
  pieceRows = size,
): Generator<EncodedPiece> {
  const { layout, positionOf } = keyedLayout(db, layer);
  const { file } = db;
  const { defaultOf } = layout;
  const valueAt = (record: RecordCells, at: number): SqlValue =>
    at < 0 ? record.rowid : at < record.count ? file.value(record, at) : defaultOf(at);
  const writer = encoder.recordWriter({
    positions: layer.columns.map(positionOf),
    cell: (record, at) => cell(valueAt(record, at)),
    utf8: file.header.encoding === 'utf-8',
  });
  const geometryAt = layer.geometryColumn ? positionOf(layer.geometryColumn) : null;
  const dims: Dimensions = { hasZ: layer.hasZ === true, hasM: layer.hasM === true };
  const plainPoints =
    layer.geometryFormat === 'gpkg' && geometryType === 'esriGeometryPoint' && !dims.hasZ && !dims.hasM;
  const xy = new Float64Array(2);
  const { part, parts } = share;
  const wanted = (index: number) => Math.floor(index / size) % parts === part;
  const records = file.recordsWhere(
    layout.root,
    start.rowNumber > 0 ? start.byteOffset : Number.NEGATIVE_INFINITY,
    wanted,
  );
  const next = () => reading(() => records.next());
  let rowNumber = start.rowNumber;
  /** The rows of the piece being written (0: none yet), and where its batch starts. */
  let rows = 0;
  let firstRowNumber = rowNumber;
  let resume: ResumePoint = { byteOffset: 0, rowNumber };
  /** A piece was given and its batch has not ended. */
  let pieceGiven = false;
  const piece = (partial: boolean): EncodedPiece => {
    const { loaded, rejected, bounds, longest } = writer.take();
    const out: EncodedPiece = { rows, loaded, rejected, firstRowNumber, next: resume, bounds, longest };
    if (partial) out.partial = true;
    rows = 0;
    firstRowNumber = rowNumber;
    return out;
  };
  for (let r = next(); !r.done; r = next()) {
    const record = r.value;
    if (typeof record === 'number') {
      rowNumber += record;
      if (rows === 0) firstRowNumber = rowNumber;
      continue;
    }
    if (rows === 0) firstRowNumber = rowNumber;
    const w = into();
    const objectId = rowNumber + 1;
    if (geometryAt === null) writer.row(w, record, objectId, undefined);
    else if (
      plainPoints &&
      geometryAt >= 0 &&
      geometryAt < record.count &&
      record.types[geometryAt] >= 12 &&
      record.types[geometryAt] % 2 === 0 &&
      geoPackagePointAt(record.bytes, record.starts[geometryAt], (record.types[geometryAt] - 12) / 2, xy)
    ) {
      writer.point(w, record, objectId, xy[0], xy[1]);
    } else {
      const value = valueAt(record, geometryAt);
      const point = plainPoints && value instanceof Uint8Array ? geoPackagePointXY(value) : undefined;
      writer.row(
        w,
        record,
        objectId,
        point ?? locate(decodeCell(value, layer.geometryFormat, dims), geometryType, dims),
      );
    }
    rows++;
    rowNumber++;
    resume = { byteOffset: record.rowid, rowNumber };
    if ((rowNumber - start.rowNumber) % size === 0) {
      pieceGiven = false;
      yield piece(false);
    } else if (rows === pieceRows) {
      pieceGiven = true;
      yield piece(true);
    }
  }
  if (rows > 0) yield piece(false);
  // The table ended with a piece: its batch ends, with no more rows, where that piece did.
  else if (pieceGiven) yield piece(false);
}
