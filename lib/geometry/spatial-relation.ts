import { boundsIntersect, geometryBounds } from './bounds.js';
import { contains } from './contains.js';
import { intersects } from './intersects.js';
import { crosses, overlaps, touches } from './relate.js';
import type { EsriGeometry } from './types.js';

export type SpatialRel =
  | 'esriSpatialRelIntersects'
  | 'esriSpatialRelEnvelopeIntersects'
  | 'esriSpatialRelIndexIntersects'
  | 'esriSpatialRelContains'
  | 'esriSpatialRelWithin'
  | 'esriSpatialRelTouches'
  | 'esriSpatialRelCrosses'
  | 'esriSpatialRelOverlaps';

/**
 * Whether a feature passes a query's spatial filter. Esri defines every relation from the query
 * geometry's side: Contains means the query geometry contains the feature, Within means the query
 * geometry lies within the feature (esriSpatialRelEnum: "Query Geometry is Within Target Geometry").
 */
export function spatialRelationHolds(rel: SpatialRel, query: EsriGeometry, feature: EsriGeometry): boolean {
  switch (rel) {
    case 'esriSpatialRelIntersects':
      return intersects(query, feature);
    case 'esriSpatialRelEnvelopeIntersects':
    case 'esriSpatialRelIndexIntersects': {
      const a = geometryBounds(query);
      const b = geometryBounds(feature);
      return a !== null && b !== null && boundsIntersect(a, b);
    }
    case 'esriSpatialRelContains':
      return contains(query, feature);
    case 'esriSpatialRelWithin':
      return contains(feature, query);
    case 'esriSpatialRelTouches':
      return touches(query, feature);
    case 'esriSpatialRelCrosses':
      return crosses(query, feature);
    case 'esriSpatialRelOverlaps':
      return overlaps(query, feature);
  }
}
