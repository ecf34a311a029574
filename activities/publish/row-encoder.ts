/**
 * Turns source rows into COPY text for a feature table: attribute values checked against their
 * field, the location read (x/y columns, or a geometry handed over by the reader or the geocoder)
 * and projected to the storage spatial reference, its box computed. Unusable rows are returned
 * with their reason instead of stopping the load.
 */

import { boxLiteral, copyValue } from '../../db/repositories/feature-tables.js';
import type { ErrorRecord } from '../../db/repositories/jobs.js';
import type { LayerPlan } from '../../db/schema/publish-request.js';
import { geometryBounds, isEmptyGeometry } from '../../lib/geometry/index.js';
import type { Bounds, EsriGeometry, SpatialReference } from '../../lib/geometry/types.js';
import { type CellValue, parseCellValue, parseNumber } from '../../lib/ingest/index.js';
import { createTransformer, resolveSpatialReference } from '../../lib/projection/index.js';

type Reject = { reason: string };

export interface EncodedBatch {
  text: string;
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
  const fields = plan.fields;

  const readPoint = (row: readonly CellValue[], xi: number, yi: number): EsriGeometry | Reject => {
    const x = toNumber(row[xi], plan.decimalComma);
    const y = toNumber(row[yi], plan.decimalComma);
    if (!Number.isFinite(x) || !Number.isFinite(y))
      return { reason: `Invalid coordinates '${String(row[xi] ?? '')}', '${String(row[yi] ?? '')}'.` };
    if (geographic && (Math.abs(x) > 180 || Math.abs(y) > 90)) {
      return { reason: `Coordinates ${x}, ${y} are outside longitude/latitude ranges.` };
    }
    return { x, y };
  };

  return {
    encode(rows, firstRowNumber, geometries) {
      const lines: string[] = [];
      const rejected: ErrorRecord[] = [];
      let bounds: Bounds | null = null;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        const objectId = firstRowNumber + i + 1;
        const reject = (reason: string) =>
          rejected.push({ layerId: plan.id, rowNumber: objectId, reason, record: row.map(jsonCell) });
        let line = String(objectId);
        let failed: string | null = null;
        for (const field of fields) {
          const parsed = parseCellValue(row[field.sourceIndex], field, options);
          if (!parsed.ok) {
            failed = parsed.reason;
            break;
          }
          const v = parsed.value;
          line += `\t${field.type === 'esriFieldTypeDate' && typeof v === 'number' ? new Date(v).toISOString() : copyValue(v)}`;
        }
        if (failed) {
          reject(failed);
          continue;
        }
        if (!transformer || plan.location.type === 'none') {
          lines.push(`${line}\t\\N\t\\N`);
          continue;
        }
        const located =
          plan.location.type === 'coordinates'
            ? readPoint(row, plan.location.xIndex, plan.location.yIndex)
            : (geometries?.[i] ?? {
                reason:
                  plan.location.type === 'address'
                    ? 'The address was not found.'
                    : 'The feature has no geometry.',
              });
        if ('reason' in located) {
          reject(located.reason);
          continue;
        }
        if (isEmptyGeometry(located)) {
          reject('The feature has an empty geometry.');
          continue;
        }
        const projected = transformer.projectGeometry(located);
        delete projected.spatialReference;
        const b = geometryBounds(projected);
        if (!b?.every(Number.isFinite)) {
          reject('The location cannot be projected to the target spatial reference.');
          continue;
        }
        bounds = bounds
          ? [
              Math.min(bounds[0], b[0]),
              Math.min(bounds[1], b[1]),
              Math.max(bounds[2], b[2]),
              Math.max(bounds[3], b[3]),
            ]
          : b;
        lines.push(`${line}\t${copyValue(JSON.stringify(projected))}\t${boxLiteral(b)}`);
      }
      return { text: lines.length ? `${lines.join('\n')}\n` : '', loaded: lines.length, rejected, bounds };
    },
  };
}

function toNumber(v: CellValue, decimalComma: boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return parseNumber(v, decimalComma);
  return Number.NaN;
}

const jsonCell = (v: CellValue): unknown => (v instanceof Date ? v.toISOString() : (v ?? null));
