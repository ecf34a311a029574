import { geometryBounds } from '../geometry/bounds.js';
import type { Bounds, EsriEnvelope, EsriGeometry, SpatialReference } from '../geometry/types.js';
import { sameSpatialReference } from '../projection/spatial-reference.js';
import { createTransformer } from '../projection/transformer.js';
import type { NormalizedQuery } from './normalized-query.js';
import type { QuantizeMode } from './quantize-geometry.js';
import { finestTransform, type QuantizeTransform, requestedTransform } from './quantize-transform.js';

/**
 * The grid of a feature answer whose shapes are already in the output spatial reference; null when
 * the answer keeps real coordinates (no quantizationParameters, and a format other than PBF, whose
 * coordinates are always integers).
 */
export function answerTransform(
  query: Pick<NormalizedQuery, 'quantization' | 'format' | 'maxAllowableOffset' | 'geometry'>,
  rows: readonly { shape?: EsriGeometry | null }[],
  storage: SpatialReference,
  outSR: SpatialReference,
): QuantizeTransform | null {
  const q = query.quantization;
  if (!q) return query.format === 'pbf' ? finestTransform(shapesBounds(rows)) : null;
  // Where the extent's own reference is not given, ArcGIS takes the query geometry's, else the layer's.
  const extent = q.extent
    ? projectBounds(q.extent.bounds, q.extent.spatialReference ?? query.geometry?.inSR ?? storage, outSR)
    : null;
  return requestedTransform(q, extent, extent ? null : shapesBounds(rows), query.maxAllowableOffset);
}

/** Without quantizationParameters (f=pbf) nothing is generalized: every vertex keeps its cell. */
export const answerMode = (query: Pick<NormalizedQuery, 'quantization'>): QuantizeMode =>
  query.quantization?.mode ?? 'edit';

function shapesBounds(rows: readonly { shape?: EsriGeometry | null }[]): Bounds | null {
  const out: Bounds = [
    Number.POSITIVE_INFINITY,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
  ];
  for (const row of rows) {
    const b = row.shape ? geometryBounds(row.shape) : null;
    if (!b) continue;
    if (b[0] < out[0]) out[0] = b[0];
    if (b[1] < out[1]) out[1] = b[1];
    if (b[2] > out[2]) out[2] = b[2];
    if (b[3] > out[3]) out[3] = b[3];
  }
  return out[0] <= out[2] ? out : null;
}

function projectBounds(b: Bounds, from: SpatialReference, to: SpatialReference): Bounds {
  if (sameSpatialReference(from, to)) return b;
  // Projecting an envelope samples its edges, so curved edges stay inside the result.
  const e = createTransformer(from, to).projectGeometry<EsriEnvelope>({
    xmin: b[0],
    ymin: b[1],
    xmax: b[2],
    ymax: b[3],
  });
  return [e.xmin, e.ymin, e.xmax, e.ymax];
}
