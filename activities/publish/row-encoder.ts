/**
 * Turns source rows into binary COPY data for a feature table: attribute values checked against
 * their field, the location read (x/y columns, or a geometry handed over by the reader or the
 * geocoder) and projected to the storage spatial reference, its box computed. Unusable rows are
 * returned with their reason instead of stopping the load. Points from x/y columns never become
 * objects: this loop runs once per row of million-row files.
 */
import type { ErrorRecord } from '../../db/repositories/jobs.js';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { geometryBounds, isEmptyGeometry } from '../../lib/geometry/index.js';
import type { Bounds, EsriGeometry, SpatialReference } from '../../lib/geometry/types.js';
import { type CellValue, parseNumber } from '../../lib/ingest/index.js';
import { createTransformer, resolveSpatialReference } from '../../lib/projection/index.js';
import { cellEncoder, coordinateReader } from './cell-encoders.js';
import { CopyBinaryWriter } from './copy-binary.js';

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
  ): EncodedBatch;
}

export function createRowEncoder(
  plan: LayerPlan,
  targetSR: SpatialReference,
  geometrySR: SpatialReference = plan.sourceSR,
): RowEncoder {
  const transformer = plan.geometryType ? createTransformer(geometrySR, targetSR) : null;
  const geographic = plan.geometryType ? resolveSpatialReference(geometrySR).geographic : false;
  const options = { decimalComma: plan.decimalComma, timeZone: plan.timeZone };
  const encoders = plan.fields.map((f) => cellEncoder(f, options));
  const sources = plan.fields.map((f) => f.sourceIndex);
  const readCoordinate = coordinateReader(plan.decimalComma, parseNumber);
  const location = plan.location;

  return {
    encode(rows, firstRowNumber, geometries) {
      const w = new CopyBinaryWriter(rows.length * 160 + 64);
      const columns = encoders.length + 3;
      let loaded = 0;
      const rejected: ErrorRecord[] = [];
      let xmin = Number.POSITIVE_INFINITY;
      let ymin = Number.POSITIVE_INFINITY;
      let xmax = Number.NEGATIVE_INFINITY;
      let ymax = Number.NEGATIVE_INFINITY;
      nextRow: for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        const objectId = firstRowNumber + i + 1;
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
            rejectRow(rejected, plan.id, objectId, row, reason);
            continue nextRow;
          }
        }
        if (!transformer || location.type === 'none') {
          w.null();
          w.null();
          loaded++;
          continue;
        }
        if (location.type === 'coordinates') {
          const x = readCoordinate(row[location.xIndex]);
          const y = readCoordinate(row[location.yIndex]);
          if (!Number.isFinite(x) || !Number.isFinite(y)) {
            w.pos = rowStart;
            rejectRow(
              rejected,
              plan.id,
              objectId,
              row,
              `Invalid coordinates '${String(row[location.xIndex] ?? '')}', '${String(row[location.yIndex] ?? '')}'.`,
            );
            continue;
          }
          if (geographic && (Math.abs(x) > 180 || Math.abs(y) > 90)) {
            w.pos = rowStart;
            rejectRow(
              rejected,
              plan.id,
              objectId,
              row,
              `Coordinates ${x}, ${y} are outside longitude/latitude ranges.`,
            );
            continue;
          }
          const [px, py] = transformer.project(x, y);
          if (!Number.isFinite(px) || !Number.isFinite(py)) {
            w.pos = rowStart;
            rejectRow(
              rejected,
              plan.id,
              objectId,
              row,
              'The location cannot be projected to the target spatial reference.',
            );
            continue;
          }
          if (px < xmin) xmin = px;
          if (py < ymin) ymin = py;
          if (px > xmax) xmax = px;
          if (py > ymax) ymax = py;
          w.text(`{"x":${px},"y":${py}}`);
          w.box(px, py, px, py);
          loaded++;
          continue;
        }
        const located = geometries?.[i] ?? {
          reason: location.type === 'address' ? 'The address was not found.' : 'The feature has no geometry.',
        };
        if ('reason' in located) {
          w.pos = rowStart;
          rejectRow(rejected, plan.id, objectId, row, located.reason);
          continue;
        }
        if (isEmptyGeometry(located)) {
          w.pos = rowStart;
          rejectRow(rejected, plan.id, objectId, row, 'The feature has an empty geometry.');
          continue;
        }
        const projected = transformer.projectGeometry(located);
        delete projected.spatialReference;
        const b = geometryBounds(projected);
        if (!b?.every(Number.isFinite)) {
          w.pos = rowStart;
          rejectRow(
            rejected,
            plan.id,
            objectId,
            row,
            'The location cannot be projected to the target spatial reference.',
          );
          continue;
        }
        xmin = Math.min(xmin, b[0]);
        ymin = Math.min(ymin, b[1]);
        xmax = Math.max(xmax, b[2]);
        ymax = Math.max(ymax, b[3]);
        w.text(JSON.stringify(projected));
        w.box(b[0], b[1], b[2], b[3]);
        loaded++;
      }
      const bounds: Bounds | null = loaded > 0 && xmin <= xmax ? [xmin, ymin, xmax, ymax] : null;
      return { data: w.finish(), loaded, rejected, bounds };
    },
  };
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
