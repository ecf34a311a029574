/**
 * The pure half of every feature query (FeatureServer query, the object ids an edit or attachment
 * request names, SOAP queries and drawings): normalize the parameters, project the filter geometry
 * into the layer's storage spatial reference, plan, and say how a candidate's stored shape is tested
 * exactly. `runPreparedQuery` (db/repositories/feature-query.ts) runs the result.
 */
import { geometryBounds } from '../geometry/bounds.js';
import { spatialRelationHolds } from '../geometry/spatial-relation.js';
import {
  type Bounds,
  type EsriEnvelope,
  type EsriGeometry,
  type SpatialReference,
  WGS84,
} from '../geometry/types.js';
import {
  type DistanceMetric,
  EARTH_MEAN_RADIUS,
  expandBounds,
  withinDistance,
} from '../geometry/within-distance.js';
import { metresPerUnit } from '../projection/linear-unit.js';
import { sameSpatialReference } from '../projection/spatial-reference.js';
import { createTransformer } from '../projection/transformer.js';
import type { LayerCatalog } from './layer-catalog.js';
import { LINEAR_UNITS } from './normalize/geometry.js';
import { normalizeQuery } from './normalize/normalize-query.js';
import type { QueryParams } from './normalize/parameter-values.js';
import type { FilterDistance, NormalizedQuery } from './normalized-query.js';
import { type PlanOptions, planFeatureQuery, type QueryPlan } from './query-plan.js';

export interface PreparedFeatureQuery {
  query: NormalizedQuery;
  plan: QueryPlan;
  /** Whether a candidate's stored shape passes the spatial filter; set when the query has a geometry. */
  exact?: (shape: EsriGeometry) => boolean;
}

/**
 * Throws the normalizer's 400 GeoError naming a bad parameter. A filter geometry given in another
 * spatial reference (inSR, or the geometry's own) is projected into `storage` before planning, so the
 * bbox prefilter and the exact test both compare shapes in one reference.
 */
export function prepareFeatureQuery(
  params: QueryParams,
  catalog: LayerCatalog,
  storage: SpatialReference,
): PreparedFeatureQuery {
  const query = normalizeQuery(params, catalog);
  const options: PlanOptions = {};
  const filter = query.geometry;
  if (!filter) return { query, plan: planFeatureQuery(query, catalog, options) };
  let geometry: EsriGeometry = filter.geometry;
  if (filter.inSR && !sameSpatialReference(filter.inSR, storage)) {
    geometry = createTransformer(filter.inSR, storage).projectGeometry(geometry);
    delete geometry.spatialReference;
    const bounds = geometryBounds(geometry);
    if (bounds) options.filterBounds = bounds;
  }
  const relation = filter.spatialRel;
  if (filter.distance) {
    const buffer = bufferDistance(filter.distance, filter.inSR ?? storage, storage);
    if (buffer.metric === 'planar' && isWebMercator(storage)) {
      // A Web Mercator metre is 1/cos(latitude) ground metres (0.6 of one at 52°N): a client asking for
      // features within 20 km means ground kilometres, so the test runs on the sphere in longitude and
      // latitude, and the bbox prefilter is the geodesic one projected back.
      const toGeo = createTransformer(storage, WGS84);
      const toStorage = createTransformer(WGS84, storage);
      const onSphere = toGeo.projectGeometry(geometry);
      const sphereBounds = geometryBounds(onSphere);
      if (sphereBounds) {
        const [xmin, ymin, xmax, ymax] = expandBounds(sphereBounds, buffer.distance, 'geodesic');
        const low = toStorage.projectGeometry({ x: xmin, y: ymin });
        const high = toStorage.projectGeometry({ x: xmax, y: ymax });
        options.filterBounds = [low.x, low.y, high.x, high.y];
      }
      return {
        query,
        plan: planFeatureQuery(query, catalog, options),
        exact: (shape) => withinDistance(onSphere, toGeo.projectGeometry(shape), buffer.distance, 'geodesic'),
      };
    }
    const bounds = geometryBounds(geometry);
    if (bounds) options.filterBounds = expandBounds(bounds, buffer.distance, buffer.metric);
    return {
      query,
      plan: planFeatureQuery(query, catalog, options),
      exact: (shape) => withinDistance(geometry, shape, buffer.distance, buffer.metric),
    };
  }
  return {
    query,
    plan: planFeatureQuery(query, catalog, options),
    exact: (shape) => spatialRelationHolds(relation, geometry, shape),
  };
}

/** Web Mercator under any of its wkids: its distances are measured on the sphere (see above). */
function isWebMercator(sr: SpatialReference): boolean {
  const wkid = sr.latestWkid ?? sr.wkid;
  return wkid === 3857 || wkid === 102100 || wkid === 102113 || wkid === 900913;
}

/**
 * A buffer distance in the terms of the storage reference: metres on the sphere for geographic
 * storage (geodesic), storage units for projected storage (planar, as ArcGIS buffers projected
 * data; Web Mercator storage is measured on the sphere instead, by the caller). Without `units` the distance is in the unit of the reference the geometry was given in
 * (degrees of a geographic one count as arcs of the mean sphere: 1° = 111,195 m).
 */
function bufferDistance(
  d: FilterDistance,
  givenIn: SpatialReference,
  storage: SpatialReference,
): { distance: number; metric: DistanceMetric } {
  const metres = d.units
    ? d.value * LINEAR_UNITS[d.units]
    : d.value * (metresPerUnit(givenIn) ?? (EARTH_MEAN_RADIUS * Math.PI) / 180);
  const storageUnit = metresPerUnit(storage);
  return storageUnit === null
    ? { distance: metres, metric: 'geodesic' }
    : { distance: metres / storageUnit, metric: 'planar' };
}

/** Projects result shapes and extents out of the storage spatial reference into the one asked for. */
export interface OutputProjection {
  /** The shape in the output reference, without a spatialReference member of its own. */
  shape(g: EsriGeometry): EsriGeometry;
  bounds(b: Bounds | null): Bounds | null;
}

export function outputProjection(storage: SpatialReference, out: SpatialReference): OutputProjection {
  if (sameSpatialReference(out, storage)) {
    return {
      shape: (g) => {
        delete g.spatialReference;
        return g;
      },
      bounds: (b) => b,
    };
  }
  const transformer = createTransformer(storage, out);
  return {
    shape: (g) => {
      const projected = transformer.projectGeometry(g);
      delete projected.spatialReference;
      return projected;
    },
    bounds: (b) => {
      if (!b) return b;
      // Projecting the envelope samples its edges, so curved projected edges stay inside the result.
      const e = transformer.projectGeometry<EsriEnvelope>({ xmin: b[0], ymin: b[1], xmax: b[2], ymax: b[3] });
      return [e.xmin, e.ymin, e.xmax, e.ymax];
    },
  };
}
