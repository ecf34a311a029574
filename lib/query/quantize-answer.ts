import { geometryBounds, unionBounds } from '../geometry/bounds.js';
import type { Bounds, EsriEnvelope, EsriGeometry, SpatialReference } from '../geometry/types.js';
import { sameSpatialReference } from '../projection/spatial-reference.js';
import { createTransformer } from '../projection/transformer.js';
import type { NormalizedQuery } from './normalized-query.js';
import { quantizeGeometry } from './quantize-geometry.js';
import { finestTransform, type QuantizeTransform, requestedTransform } from './quantize-transform.js';

/**
 * Quantizes a feature answer's shapes (already in the output spatial reference) in place, and
 * returns the grid used; null when the answer keeps real coordinates (no quantizationParameters, and
 * a format other than PBF, whose coordinates are always integers).
 */
export function quantizeAnswer(
  query: Pick<NormalizedQuery, 'quantization' | 'format' | 'maxAllowableOffset' | 'geometry'>,
  rows: { shape?: EsriGeometry | null }[],
  storage: SpatialReference,
  outSR: SpatialReference,
): QuantizeTransform | null {
  const q = query.quantization;
  if (!q && query.format !== 'pbf') return null;
  let transform: QuantizeTransform;
  if (q) {
    // Where the extent's own reference is not given, ArcGIS takes the query geometry's, else the layer's.
    const extent = q.extent
      ? projectBounds(q.extent.bounds, q.extent.spatialReference ?? query.geometry?.inSR ?? storage, outSR)
      : null;
    transform = requestedTransform(q, extent, extent ? null : shapesBounds(rows), query.maxAllowableOffset);
  } else {
    transform = finestTransform(shapesBounds(rows));
  }
  const mode = q?.mode ?? 'edit';
  for (const row of rows) {
    if (row.shape) row.shape = quantizeGeometry(row.shape, transform, mode);
  }
  return transform;
}

function shapesBounds(rows: readonly { shape?: EsriGeometry | null }[]): Bounds | null {
  let out: Bounds | null = null;
  for (const row of rows) if (row.shape) out = unionBounds([out, geometryBounds(row.shape)]);
  return out;
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
