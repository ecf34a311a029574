import { type Dimensions, XY } from '../geometry/dimensions.js';
import { isMultipoint, isPoint, isPolygon, isPolyline } from '../geometry/kinds.js';
import type { EsriGeometry, SpatialReference } from '../geometry/types.js';
import { encodeFeatureResult } from '../render/pbf-feature-collection.js';
import { featureAttribute, type ResponseLayer, renderFeatureSet } from './feature-response.js';
import type { CatalogField } from './field-catalog.js';
import type { NormalizedQuery } from './normalized-query.js';
import { answerMode, answerTransform } from './quantize-answer.js';
import { quantizeGeometry, quantizeParts } from './quantize-geometry.js';
import { finestOrdinateGrid, type QuantizeTransform, transformJson } from './quantize-transform.js';
import type { FeatureRow } from './row-mapping.js';

export interface FeatureAnswerInput {
  query: Pick<
    NormalizedQuery,
    'quantization' | 'format' | 'maxAllowableOffset' | 'geometry' | 'geometryPrecision'
  >;
  layer: ResponseLayer;
  /** The layer's storage spatial reference (the default of a quantization extent's). */
  storage: SpatialReference;
  /** The spatial reference the rows' shapes are in, as asked (outSR, or the storage one). */
  outSR: SpatialReference;
  fields: readonly CatalogField[];
  /** Shapes already in the output spatial reference (layer.spatialReference); quantizing replaces them. */
  rows: FeatureRow[];
  exceededTransferLimit: boolean;
  returnGeometry: boolean;
  /** The z and m the shapes carry (PBF only: JSON quantization is x/y only and refuses them). */
  layout?: Dimensions;
}

/**
 * A page of features in Esri JSON (f=json, pjson) or as the FeatureCollection protocol buffer (f=pbf),
 * on the quantization grid when the query asks for one (PBF always has one).
 */
export function renderFeatureAnswer(
  input: FeatureAnswerInput,
): Record<string, unknown> | Uint8Array<ArrayBuffer> {
  const { query, layer, rows } = input;
  const pbf = query.format === 'pbf';
  const layout = pbf && input.returnGeometry ? (input.layout ?? XY) : XY;
  const xy = input.returnGeometry ? answerTransform(query, rows, input.storage, input.outSR) : null;
  const transform = xy && (layout.hasZ || layout.hasM) ? withOrdinateGrids(xy, rows, layout) : xy;
  const mode = answerMode(query);
  // PBF takes the cells flat; JSON takes them as Esri JSON geometries in place of the shapes.
  const cells = pbf
    ? rows.map((r) => (r.shape && transform ? quantizeParts(r.shape, transform, mode, layout) : null))
    : null;
  // Centroids (returnCentroid) go on the same grid as the shapes, as clients de-quantize both.
  const centroids = pbf
    ? rows.map((r) => (r.centroid && transform ? quantizeParts(r.centroid, transform, 'edit') : null))
    : null;
  if (transform && !pbf)
    for (const r of rows) {
      if (r.shape) r.shape = quantizeGeometry(r.shape, transform, mode);
      if (r.centroid)
        r.centroid = quantizeGeometry(r.centroid, transform, 'edit') as { x: number; y: number };
    }
  if (!pbf) {
    const body = renderFeatureSet({
      layer,
      fields: input.fields,
      rows,
      exceededTransferLimit: input.exceededTransferLimit,
      returnGeometry: input.returnGeometry,
      geometryPrecision: transform ? null : query.geometryPrecision,
    });
    if (transform) body.transform = transformJson(transform);
    return body;
  }
  return encodeFeatureResult({
    objectIdFieldName: layer.objectIdField,
    globalIdFieldName: layer.globalIdField,
    geometryType: layer.geometryType,
    spatialReference: layer.spatialReference,
    exceededTransferLimit: input.exceededTransferLimit,
    hasZ: layout.hasZ,
    hasM: layout.hasM,
    transform,
    fields: input.fields,
    featureCount: rows.length,
    attribute: (i, f) => featureAttribute(rows[i], f as CatalogField, layer.objectIdField),
    geometries: cells,
    centroids,
  });
}

/** The answer's grid with z and m grids over the range of the shapes' z and m values. */
function withOrdinateGrids(
  t: QuantizeTransform,
  rows: readonly { shape?: EsriGeometry | null }[],
  layout: Dimensions,
): QuantizeTransform {
  const range = (at: number, key: 'z' | 'm') => {
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    const take = (v: unknown) => {
      if (typeof v !== 'number' || !Number.isFinite(v)) return;
      if (v < min) min = v;
      if (v > max) max = v;
    };
    for (const { shape } of rows) {
      if (!shape) continue;
      if (isPoint(shape)) take(shape[key]);
      const parts = isMultipoint(shape)
        ? [shape.points]
        : isPolyline(shape)
          ? shape.paths
          : isPolygon(shape)
            ? shape.rings
            : [];
      for (const part of parts) for (const p of part) take(p[at]);
    }
    return finestOrdinateGrid(min, max);
  };
  return {
    ...t,
    ...(layout.hasZ ? { z: range(2, 'z') } : {}),
    ...(layout.hasM ? { m: range(layout.hasZ ? 3 : 2, 'm') } : {}),
  };
}
