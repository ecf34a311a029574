import type { Bounds, SpatialReference } from '../geometry/types.js';
import { fail, isRecord, present, readJson } from './normalize/parameter-values.js';
import { spatialReferenceObject } from './normalize/spatial-reference.js';

/**
 * `quantizationParameters`: snap output coordinates to an integer grid (ArcGIS query, "view" to draw,
 * "edit" to edit). Missing members take the defaults of ArcGIS and the Maps SDK's
 * QuantizationParameters: mode `view`, originPosition `upperLeft`; the tolerance and the extent are
 * filled in when the answer is rendered (quantize-transform.ts).
 */
export interface QuantizationParameters {
  mode: 'view' | 'edit';
  originPosition: 'upperLeft' | 'lowerLeft';
  /** Size of one grid cell in outSR units; null: maxAllowableOffset, or a grid of 10^6 cells. */
  tolerance: number | null;
  extent: QuantizationExtent | null;
}

export interface QuantizationExtent {
  bounds: Bounds;
  /** Null: the filter geometry's inSR if the query has one, else the layer's own. */
  spatialReference: SpatialReference | null;
}

const NAME = 'quantizationParameters';
const MODES = ['view', 'edit'] as const;
const ORIGINS = ['upperLeft', 'lowerLeft'] as const;

export function normalizeQuantizationParameters(value: string | undefined): QuantizationParameters | null {
  const text = present(value);
  if (text === undefined) return null;
  const v = readJson(NAME, text);
  if (!isRecord(v)) throw fail(NAME, 'the value must be a JSON object');
  for (const key of Object.keys(v)) {
    if (!['mode', 'originPosition', 'tolerance', 'extent'].includes(key))
      throw fail(NAME, `unknown member '${key}'; use mode, originPosition, tolerance and extent`);
  }
  return {
    mode: oneOf('mode', v.mode, MODES, 'view'),
    originPosition: oneOf('originPosition', v.originPosition, ORIGINS, 'upperLeft'),
    tolerance: tolerance(v.tolerance),
    extent: extent(v.extent),
  };
}

function oneOf<T extends string>(member: string, v: unknown, allowed: readonly T[], fallback: T): T {
  if (v === undefined || v === null) return fallback;
  const found = typeof v === 'string' ? allowed.find((a) => a.toLowerCase() === v.toLowerCase()) : undefined;
  if (!found) throw fail(NAME, `${member} '${String(v)}' is not one of ${allowed.join(', ')}`);
  return found;
}

function tolerance(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0)
    throw fail(NAME, `tolerance must be a positive number, not ${JSON.stringify(v)}`);
  return v;
}

function extent(v: unknown): QuantizationExtent | null {
  if (v === undefined || v === null) return null;
  if (!isRecord(v)) throw fail(NAME, 'extent must be an envelope object {xmin, ymin, xmax, ymax}');
  const coords = (['xmin', 'ymin', 'xmax', 'ymax'] as const).map((k) => {
    const n = v[k];
    if (typeof n !== 'number' || !Number.isFinite(n)) throw fail(NAME, `extent.${k} must be a number`);
    return n;
  }) as Bounds;
  if (coords[0] > coords[2] || coords[1] > coords[3])
    throw fail(NAME, 'extent must have xmin <= xmax and ymin <= ymax');
  const sr = v.spatialReference;
  return {
    bounds: coords,
    spatialReference:
      sr === undefined || sr === null ? null : spatialReferenceObject(`${NAME}.extent.spatialReference`, sr),
  };
}
