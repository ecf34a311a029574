import proj4 from 'proj4';
import { mapCoordinates } from '../geometry/map-coordinates.js';
import type { EsriGeometry, SpatialReference } from '../geometry/types.js';
import { resolveSpatialReference, spatialReferenceForWkid } from './spatial-reference.js';
import { lonLatToWebMercator, MAX_MERCATOR_LATITUDE, webMercatorToLonLat } from './web-mercator.js';

/** Projects coordinates from one spatial reference to another. */
export interface Transformer {
  /** True when both ends are the same spatial reference: project() returns its input. */
  readonly identity: boolean;
  /** One (x, y) pair. Points outside the target's domain come back as NaN or Infinity. */
  project(x: number, y: number): [number, number];
  /** A whole Esri geometry, tagged with the target spatial reference. */
  projectGeometry<G extends EsriGeometry>(g: G): G;
}

const WGS84_WKID = 4326;
const WEB_MERCATOR_WKID = 3857;

/**
 * A transformer between two spatial references (wkid or WKT). Same-to-same is the identity, and the
 * 4326⇄3857 pair of every web map uses plain arithmetic; everything else goes through proj4, whose
 * converter is built once here and reused for every coordinate.
 */
export function createTransformer(from: SpatialReference, to: SpatialReference): Transformer {
  const source = resolveSpatialReference(from);
  const target = resolveSpatialReference(to);
  const targetSr: SpatialReference =
    target.wkid !== null ? spatialReferenceForWkid(target.wkid) : { wkt: target.definition };
  const sameWkid = source.wkid !== null && source.wkid === target.wkid;
  const sameWkt = source.wkid === null && target.wkid === null && source.definition === target.definition;
  let project: (x: number, y: number) => [number, number];
  if (sameWkid || sameWkt) {
    project = (x, y) => [x, y];
  } else if (source.wkid === WGS84_WKID && target.wkid === WEB_MERCATOR_WKID) {
    project = lonLatToWebMercator;
  } else if (source.wkid === WEB_MERCATOR_WKID && target.wkid === WGS84_WKID) {
    project = webMercatorToLonLat;
  } else {
    const converter = proj4(source.definition, target.definition);
    const clampMercator = target.wkid === WEB_MERCATOR_WKID && source.geographic;
    project = (x, y) => {
      const out = converter.forward([x, clampMercator ? clampLatitude(y) : y]);
      return [out[0], out[1]];
    };
  }
  const identity = sameWkid || sameWkt;
  return {
    identity,
    project,
    projectGeometry<G extends EsriGeometry>(g: G): G {
      const out = (identity ? structuredClone(g) : mapCoordinates(g, project)) as G;
      out.spatialReference = targetSr;
      return out;
    },
  };
}

/** Mercator has no pole: latitudes past ±85.0511° would project to ±Infinity. */
const clampLatitude = (lat: number): number =>
  Math.max(-MAX_MERCATOR_LATITUDE, Math.min(MAX_MERCATOR_LATITUDE, lat));
