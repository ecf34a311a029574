/**
 * Turns source rows into binary COPY data for a feature table: attribute values checked against
 * their field, the location read (x/y columns, or a geometry handed over by the reader or the
 * geocoder) and projected to the storage spatial reference, its box computed. Unusable rows are
 * returned with their reason instead of stopping the load. Points from x/y columns never become
 * objects: this loop runs once per row of million-row files.
 *
 * Delimited text can also be encoded straight from its bytes (encodeDelimited): a line of plain
 * ASCII without qualifiers is cut into fields by offsets and its numbers read from the bytes, so
 * no string is made for most cells; any other line takes the string route, with the same result.
 */

import { isAscii } from 'node:buffer';
import type { ErrorRecord } from '../../db/repositories/jobs.js';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { geometryBounds, isEmptyGeometry } from '../../lib/geometry/index.js';
import type { Bounds, EsriGeometry, SpatialReference } from '../../lib/geometry/types.js';
import { type CellValue, decoderFor, parseNumber } from '../../lib/ingest/index.js';
import { type RecordCells, recordNumber } from '../../lib/ingest/sqlite-file.js';
import { createTransformer, resolveSpatialReference } from '../../lib/projection/index.js';
import { byteCellEncoder, cellEncoder, coordinateReader, plainDecimalBytes } from './cell-encoders.js';
import { CopyBinaryWriter } from './copy-binary.js';
import type { CsvDialect } from './csv-source.js';
import { loadedFields, measuredTextFields } from './sqlite-text-widths.js';

type Reject = { reason: string };

export interface EncodedBatch {
  /** Binary COPY data (header, rows, trailer) for `copyRows`. */
  data: Uint8Array;
  loaded: number;
  rejected: ErrorRecord[];
  bounds: Bounds | null;
}

export interface RowEncoder {
  /**
   * `geometries[i]` belongs to `rows[i]` (readers with geometry, or geocoding results; null means
   * no location). Object ids are source row numbers, so a reloaded batch gets the same ids.
   */
  encode(
    rows: readonly CellValue[][],
    firstRowNumber: number,
    geometries?: readonly (EsriGeometry | Reject | null)[],
    into?: CopyBinaryWriter,
  ): EncodedBatch;
  /**
   * Whole records of delimited text (no partial line), read exactly as `parseRecords` reads them
   * when the bytes hold no qualifier; only for layers located by x/y columns or not at all.
   * Answers the batch and the number of records in it.
   */
  encodeDelimited(
    bytes: Uint8Array,
    dialect: CsvDialect,
    firstRowNumber: number,
    into?: CopyBinaryWriter,
  ): EncodedBatch & { records: number };
  /**
   * A writer of SQLite records laid out in place (lib/ingest/sqlite-file.ts RecordCells), with the same
   * bytes, counts and rejections `encode` gives for the rows a SQLite reader decodes from them: text
   * cells of plain ASCII are written from the page bytes, numbers as read, and only the other cells
   * (other text, blobs, the rowid, defaults) are decoded, by `columns.cell`.
   */
  recordWriter(columns: RecordColumns): RecordWriter;
}

/** Where a SQLite reader's row cells lie in its records. */
export interface RecordColumns {
  /** The record position of each cell of a reader's row (-1: the rowid), as the reader reads them. */
  positions: readonly number[];
  /** The cell at a record position (any: the rowid, past the record's end, blobs), as the reader gives it. */
  cell(record: RecordCells, at: number): CellValue;
  /** The file's text is UTF-8 (ASCII text bytes are then the text's own). */
  utf8: boolean;
}

export interface RecordWriter {
  /** Appends a record whose geometry is the plain point (x, y) (a GeoPackage point read in place). */
  point(w: CopyBinaryWriter, record: RecordCells, objectId: number, x: number, y: number): void;
  /** Appends a record with the geometry its reader located (undefined: the layer has none). */
  row(
    w: CopyBinaryWriter,
    record: RecordCells,
    objectId: number,
    geometry: EsriGeometry | Reject | null | undefined,
  ): void;
  /**
   * Rows written and rejected since the last call (which it starts again), the box around the written
   * rows' boxes, and the longest value written of each measured text field (measuredTextFields' order,
   * in bytes as written; 0 when none): the figures copy-stats.ts adds up for finishLayer.
   */
  take(): { loaded: number; rejected: ErrorRecord[]; bounds: Bounds | null; longest: number[] };
}

/** recordWriter's position of a field with no cell in the reader's rows. */
const NO_CELL = -2;

/** With `into`, rows are appended to that writer, which the caller finishes, and `data` is empty. */
const APPENDED = new Uint8Array(0);

/** The running extent of a batch. */
class Extent {
  xmin = Number.POSITIVE_INFINITY;
  ymin = Number.POSITIVE_INFINITY;
  xmax = Number.NEGATIVE_INFINITY;
  ymax = Number.NEGATIVE_INFINITY;
  add(x0: number, y0: number, x1: number, y1: number) {
    if (x0 < this.xmin) this.xmin = x0;
    if (y0 < this.ymin) this.ymin = y0;
    if (x1 > this.xmax) this.xmax = x1;
    if (y1 > this.ymax) this.ymax = y1;
  }
  bounds(loaded: number): Bounds | null {
    return loaded > 0 && this.xmin <= this.xmax ? [this.xmin, this.ymin, this.xmax, this.ymax] : null;
  }
}

const PROJECTION_FAILED = 'The location cannot be projected to the target spatial reference.';
const WHITESPACE = new Uint8Array(128);
for (const c of [9, 10, 11, 12, 13, 32]) WHITESPACE[c] = 1;

export function createRowEncoder(
  plan: LayerPlan,
  targetSR: SpatialReference,
  geometrySR: SpatialReference = plan.sourceSR,
): RowEncoder {
  const transformer = plan.geometryType ? createTransformer(geometrySR, targetSR) : null;
  const geographic = plan.geometryType ? resolveSpatialReference(geometrySR).geographic : false;
  const options = { decimalComma: plan.decimalComma, timeZone: plan.timeZone };
  const fields = loadedFields(plan);
  const encoders = fields.map((f) => cellEncoder(f, options));
  const byteEncoders = fields.map((f, i) => byteCellEncoder(f, options, encoders[i]));
  const sources = plan.fields.map((f) => f.sourceIndex);
  const readCoordinate = coordinateReader(plan.decimalComma, parseNumber);
  const mark = plan.decimalComma ? 44 : 46;
  const location = plan.location;
  const columns = encoders.length + 3;
  const points = transformer !== null && location.type === 'coordinates' ? location : null;

  /** Writes the point's shape and box, or answers why it cannot be stored. */
  function writePoint(w: CopyBinaryWriter, extent: Extent, x: number, y: number): string | null {
    if (geographic && (Math.abs(x) > 180 || Math.abs(y) > 90)) {
      return `Coordinates ${x}, ${y} are outside longitude/latitude ranges.`;
    }
    return writeProjected(w, extent, x, y);
  }

  /**
   * A reader's x/y point, as the general path below writes it (projected, its JSON and its box) without
   * the objects that path makes: GeoPackage and shapefile point layers run this once per row.
   */
  function writeGeometryPoint(w: CopyBinaryWriter, extent: Extent, x: number, y: number): string | null {
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      // An empty point (NaN coordinates): stored without a geometry.
      w.null();
      w.null();
      return null;
    }
    return writeProjected(w, extent, x, y);
  }

  /**
   * The point projected, as its box alone: the shape's text is left null and read from the box
   * (lib/query/plan-statements.ts SHAPE_TEXT). Writing `{"x":…,"y":…}` here was a fifth of a CSV
   * load's encoding (two doubles to shortest text a row) and a quarter of its COPY bytes.
   */
  function writeProjected(w: CopyBinaryWriter, extent: Extent, x: number, y: number): string | null {
    const [px, py] = (transformer as NonNullable<typeof transformer>).project(x, y);
    if (!Number.isFinite(px) || !Number.isFinite(py)) return PROJECTION_FAILED;
    extent.add(px, py, px, py);
    w.null();
    w.box(px, py, px, py);
    return null;
  }

  /**
   * The row's location (shape text and box), after its attributes: from x/y cells (`xCell`, `yCell`,
   * for a layer located by coordinates) or the reader's geometry. Answers why it cannot be stored.
   */
  function writeLocation(
    w: CopyBinaryWriter,
    extent: Extent,
    xCell: CellValue | undefined,
    yCell: CellValue | undefined,
    geometry: EsriGeometry | Reject | null | undefined,
  ): string | null {
    let reason: string | null = null;
    if (!transformer || location.type === 'none') {
      w.null();
      w.null();
    } else if (points) {
      const x = readCoordinate(xCell);
      const y = readCoordinate(yCell);
      reason =
        Number.isFinite(x) && Number.isFinite(y)
          ? writePoint(w, extent, x, y)
          : `Invalid coordinates '${String(xCell ?? '')}', '${String(yCell ?? '')}'.`;
    } else {
      const located = geometry ?? null;
      if (located === null) {
        // A feature of a file with geometries that has none (GeoJSON `geometry: null`, a shapefile's null
        // shape, a NULL blob) is kept without one, as GDAL and ArcGIS keep it; a row whose address or
        // boundary was not found is not.
        if (location.type === 'geometry') {
          w.null();
          w.null();
        } else {
          reason =
            location.type === 'address' ? 'The address was not found.' : 'The feature has no geometry.';
        }
      } else if ('reason' in located) reason = located.reason;
      else if (isPlainPoint(located)) reason = writeGeometryPoint(w, extent, located.x, located.y);
      else if (isEmptyGeometry(located)) {
        // POINT EMPTY, no parts: stored without a geometry, as a null one is.
        w.null();
        w.null();
      } else {
        const projected = transformer.projectGeometry(located);
        delete projected.spatialReference;
        const b = geometryBounds(projected);
        if (!b?.every(Number.isFinite)) reason = PROJECTION_FAILED;
        else {
          extent.add(b[0], b[1], b[2], b[3]);
          w.text(JSON.stringify(projected));
          w.box(b[0], b[1], b[2], b[3]);
        }
      }
    }
    return reason;
  }

  /** One row of values: written whole, or rolled back with its reason. */
  function encodeRow(
    w: CopyBinaryWriter,
    extent: Extent,
    row: readonly CellValue[],
    objectId: number,
    geometry: EsriGeometry | Reject | null | undefined,
  ): string | null {
    const rowStart = w.pos;
    w.row(columns);
    w.int4(objectId);
    for (let f = 0; f < encoders.length; f++) {
      const raw = row[sources[f]];
      if (raw === null || raw === undefined || raw === '') {
        w.null();
        continue;
      }
      const reason = encoders[f](raw, w);
      if (reason !== null) {
        w.pos = rowStart;
        return reason;
      }
    }
    const reason = writeLocation(w, extent, row[points?.xIndex ?? 0], row[points?.yIndex ?? 0], geometry);
    if (reason !== null) w.pos = rowStart;
    return reason;
  }

  return {
    encode(rows, firstRowNumber, geometries, into) {
      const w = into ?? new CopyBinaryWriter(rows.length * 160 + 64);
      const extent = new Extent();
      const rejected: ErrorRecord[] = [];
      let loaded = 0;
      for (let i = 0; i < rows.length; i++) {
        const objectId = firstRowNumber + i + 1;
        const reason = encodeRow(w, extent, rows[i], objectId, geometries?.[i]);
        if (reason === null) loaded++;
        else rejectRow(rejected, plan.id, objectId, rows[i], reason);
      }
      return { data: into ? APPENDED : w.finish(), loaded, rejected, bounds: extent.bounds(loaded) };
    },

    recordWriter(cols) {
      // A field whose source is no cell of the reader's rows (never in a plan made from the file) is null.
      const recordAt = sources.map((i) => cols.positions[i] ?? NO_CELL);
      const { utf8 } = cols;
      // Text fields take a plain ASCII cell that starts with a visible character and fits as it is
      // (what their byte encoder writes as it is), checked while copied: -1 for other fields.
      const textMax = fields.map((f) =>
        f.type === 'esriFieldTypeString' || f.type === 'esriFieldTypeGUID'
          ? (f.length ?? Number.MAX_SAFE_INTEGER)
          : -1,
      );
      let extent = new Extent();
      let rejected: ErrorRecord[] = [];
      let loaded = 0;
      // Each measured text field's slot (-1: not measured), where the row being written has it, and the
      // longest written since take(): a rejected row's values are not counted.
      const measuredColumns = measuredTextFields(plan).map((f) => f.column);
      const slotOf = Int32Array.from(plan.fields, (f) => measuredColumns.indexOf(f.column));
      const measuredAt = new Int32Array(measuredColumns.length);
      let longest = measuredColumns.map(() => 0);
      /** A Buffer over the last record's bytes (a page holds many records), for the byte encoders. */
      let bufferOf: Uint8Array | null = null;
      let buffer: Buffer = Buffer.alloc(0);
      const cellAt = (record: RecordCells, index: number): CellValue | undefined =>
        index < cols.positions.length ? cols.cell(record, cols.positions[index]) : undefined;
      const rowOf = (record: RecordCells) => cols.positions.map((at) => cols.cell(record, at));

      /** The record's attribute cells (after its object id), or why the row cannot be stored. */
      function writeCells(w: CopyBinaryWriter, record: RecordCells): string | null {
        const { bytes, types, starts, count } = record;
        for (let f = 0; f < encoders.length; f++) {
          const at = recordAt[f];
          let reason: string | null;
          // Every path below writes the field (a value or a null) from here.
          if (slotOf[f] >= 0) measuredAt[slotOf[f]] = w.pos;
          const t = at >= 0 && at < count ? types[at] : -1;
          // NULL, an empty blob and an empty text: the reader's null and '' are written as null.
          if (t === 0 || t === 12 || t === 13 || at === NO_CELL) {
            w.null();
            continue;
          }
          if (utf8 && t > 13 && t % 2 === 1) {
            const s = starts[at];
            const n = (t - 13) / 2;
            const e = s + n;
            const c0 = bytes[s];
            if (n <= textMax[f] && c0 > 32 && c0 < 127 && w.plainAscii(bytes, s, e)) continue;
            let plain = true;
            for (let i = s; i < e; i++) {
              const c = bytes[i];
              if (c === 0 || c >= 0x80) {
                plain = false;
                break;
              }
            }
            if (plain) {
              if (bytes !== bufferOf) {
                bufferOf = bytes;
                buffer = Buffer.isBuffer(bytes)
                  ? bytes
                  : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
              }
              reason = byteEncoders[f](buffer, s, e, w);
              if (reason !== null) return reason;
              continue;
            }
          }
          // Numbers (all but 8-byte integers, which the reader rounds through BigInt) read in place.
          if ((t >= 1 && t <= 5) || t === 7 || t === 8 || t === 9) {
            reason = encoders[f](recordNumber(bytes, starts[at], t), w);
            if (reason !== null) return reason;
            continue;
          }
          const raw = cols.cell(record, at);
          if (raw === null || raw === undefined || raw === '') {
            w.null();
            continue;
          }
          reason = encoders[f](raw, w);
          if (reason !== null) return reason;
        }
        return null;
      }

      function finish(
        w: CopyBinaryWriter,
        rowStart: number,
        record: RecordCells,
        objectId: number,
        reason: string | null,
      ) {
        if (reason === null) {
          loaded++;
          for (let k = 0; k < measuredAt.length; k++) {
            const n = w.lengthAt(measuredAt[k]);
            if (n > longest[k]) longest[k] = n;
          }
          return;
        }
        w.pos = rowStart;
        rejectRow(rejected, plan.id, objectId, rowOf(record), reason);
      }

      const xCell = (record: RecordCells) => (points ? cellAt(record, points.xIndex) : undefined);
      const yCell = (record: RecordCells) => (points ? cellAt(record, points.yIndex) : undefined);

      return {
        point(w, record, objectId, x, y) {
          const rowStart = w.pos;
          w.row(columns);
          w.int4(objectId);
          let reason = writeCells(w, record);
          if (reason === null) {
            reason =
              transformer && location.type !== 'none' && !points
                ? writeGeometryPoint(w, extent, x, y)
                : writeLocation(w, extent, xCell(record), yCell(record), { x, y });
          }
          finish(w, rowStart, record, objectId, reason);
        },
        row(w, record, objectId, geometry) {
          const rowStart = w.pos;
          w.row(columns);
          w.int4(objectId);
          let reason = writeCells(w, record);
          if (reason === null) reason = writeLocation(w, extent, xCell(record), yCell(record), geometry);
          finish(w, rowStart, record, objectId, reason);
        },
        take() {
          const out = { loaded, rejected, bounds: extent.bounds(loaded), longest };
          loaded = 0;
          rejected = [];
          extent = new Extent();
          longest = measuredColumns.map(() => 0);
          return out;
        },
      };
    },

    encodeDelimited(bytes, dialect, firstRowNumber, into) {
      if (location.type !== 'coordinates' && location.type !== 'none') {
        throw new Error('encodeDelimited reads x/y locations only.');
      }
      const w = into ?? new CopyBinaryWriter(bytes.length * 3 + 64);
      const extent = new Extent();
      const rejected: ErrorRecord[] = [];
      const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      const decoder = decoderFor(dialect.encoding);
      const delimiter = dialect.delimiter.length === 1 ? dialect.delimiter.charCodeAt(0) : -1;
      const crlf = dialect.newline === '\r\n';
      let bounds: Int32Array = new Int32Array(256);
      let loaded = 0;
      let records = 0;
      const n = bytes.length;
      // A batch of plain ASCII without NUL (most machine-written files; one native pass each) has only
      // its delimiters looked for, byte by byte; any other batch is checked line by line as it is split.
      const allPlain = delimiter >= 0 && isAscii(buf) && !buf.includes(0);
      let lineStart = 0;
      while (lineStart < n) {
        // The line ends at the dialect's newline (a bare LF stays in the line of a CRLF file).
        let lf = bytes.indexOf(10, lineStart);
        if (crlf) {
          while (lf >= 0 && (lf === lineStart || bytes[lf - 1] !== 13)) lf = bytes.indexOf(10, lf + 1);
        }
        const lineEnd = lf < 0 ? n : crlf ? lf - 1 : lf;
        const next = lf < 0 ? n : lf + 1;
        if (lineEnd === lineStart) {
          lineStart = next;
          continue;
        }
        // Field bounds (start, end pairs); plain means ASCII without NUL and a one-byte delimiter.
        let fields = 0;
        let plain = delimiter >= 0;
        let blank = true;
        let fieldStart = lineStart;
        if (allPlain) {
          for (let i = lineStart; i < lineEnd; i++) {
            if (bytes[i] === delimiter) {
              if (fields * 2 + 4 > bounds.length) bounds = grow(bounds);
              bounds[fields * 2] = fieldStart;
              bounds[fields * 2 + 1] = i;
              fields++;
              fieldStart = i + 1;
            }
          }
          blank = blankLine(bytes, lineStart, lineEnd, delimiter);
        } else {
          for (let i = lineStart; plain && i < lineEnd; i++) {
            const c = bytes[i];
            if (c === delimiter) {
              if (fields * 2 + 4 > bounds.length) bounds = grow(bounds);
              bounds[fields * 2] = fieldStart;
              bounds[fields * 2 + 1] = i;
              fields++;
              fieldStart = i + 1;
            } else if (c >= 0x80 || c === 0) plain = false;
            else if (blank && WHITESPACE[c] === 0) blank = false;
          }
        }
        if (!plain) {
          // Not plain ASCII: the line as parseRecords reads it, as strings.
          const row = decoder.decode(bytes.subarray(lineStart, lineEnd)).split(dialect.delimiter);
          lineStart = next;
          if (row.every((f) => f.trim() === '')) continue;
          const objectId = firstRowNumber + ++records;
          const reason = encodeRow(w, extent, row, objectId, undefined);
          if (reason === null) loaded++;
          else rejectRow(rejected, plan.id, objectId, row, reason);
          continue;
        }
        lineStart = next;
        if (blank) continue;
        if (fields * 2 + 2 > bounds.length) bounds = grow(bounds);
        bounds[fields * 2] = fieldStart;
        bounds[fields * 2 + 1] = lineEnd;
        fields++;
        const objectId = firstRowNumber + ++records;
        const reason = encodeBytesRow(w, extent, buf, bounds, fields, objectId);
        if (reason === null) loaded++;
        else rejectRow(rejected, plan.id, objectId, asciiRow(buf, bounds, fields), reason);
      }
      const data = into ? APPENDED : w.finish();
      return { data, loaded, rejected, bounds: extent.bounds(loaded), records };
    },
  };

  /** One plain ASCII row from its field bounds: as encodeRow would write its strings. */
  function encodeBytesRow(
    w: CopyBinaryWriter,
    extent: Extent,
    buf: Buffer,
    bounds: Int32Array,
    fields: number,
    objectId: number,
  ): string | null {
    const rowStart = w.pos;
    w.row(columns);
    w.int4(objectId);
    for (let f = 0; f < byteEncoders.length; f++) {
      const src = sources[f];
      const s = src < fields ? bounds[src * 2] : 0;
      const e = src < fields ? bounds[src * 2 + 1] : 0;
      if (s === e) {
        w.null();
        continue;
      }
      const reason = byteEncoders[f](buf, s, e, w);
      if (reason !== null) {
        w.pos = rowStart;
        return reason;
      }
    }
    if (!points) {
      w.null();
      w.null();
      return null;
    }
    const x = coordinateAt(buf, bounds, fields, points.xIndex);
    const y = coordinateAt(buf, bounds, fields, points.yIndex);
    const reason =
      Number.isFinite(x) && Number.isFinite(y)
        ? writePoint(w, extent, x, y)
        : `Invalid coordinates '${cellText(buf, bounds, fields, points.xIndex)}', '${cellText(buf, bounds, fields, points.yIndex)}'.`;
    if (reason !== null) w.pos = rowStart;
    return reason;
  }

  function coordinateAt(buf: Buffer, bounds: Int32Array, fields: number, index: number): number {
    if (index >= fields) return Number.NaN;
    const s = bounds[index * 2];
    const e = bounds[index * 2 + 1];
    const v = plainDecimalBytes(buf, s, e, mark);
    return Number.isNaN(v) ? readCoordinate(buf.toString('latin1', s, e)) : v;
  }
}

/** A point with x and y only (no z, m or other key but its spatial reference). */
function isPlainPoint(g: EsriGeometry): g is { x: number; y: number } {
  const p = g as { x?: unknown; y?: unknown; z?: unknown; m?: unknown };
  return typeof p.x === 'number' && typeof p.y === 'number' && p.z === undefined && p.m === undefined;
}

/** Whether the plain ASCII line `[start, end)` holds nothing but blanks and delimiters. */
function blankLine(bytes: Uint8Array, start: number, end: number, delimiter: number): boolean {
  for (let i = start; i < end; i++) {
    const c = bytes[i];
    if (c !== delimiter && WHITESPACE[c] === 0) return false;
  }
  return true;
}

function grow(bounds: Int32Array): Int32Array {
  const next = new Int32Array(bounds.length * 2);
  next.set(bounds);
  return next;
}

const cellText = (buf: Buffer, bounds: Int32Array, fields: number, index: number): string =>
  index < fields ? buf.toString('latin1', bounds[index * 2], bounds[index * 2 + 1]) : '';

function asciiRow(buf: Buffer, bounds: Int32Array, fields: number): string[] {
  return Array.from({ length: fields }, (_, i) => buf.toString('latin1', bounds[i * 2], bounds[i * 2 + 1]));
}

function rejectRow(
  into: ErrorRecord[],
  layerId: number,
  rowNumber: number,
  row: readonly CellValue[],
  reason: string,
) {
  into.push({ layerId, rowNumber, reason, record: row.map(jsonCell) });
}

const jsonCell = (v: CellValue): unknown => (v instanceof Date ? v.toISOString() : (v ?? null));
