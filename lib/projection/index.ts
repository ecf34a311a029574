/** Spatial references and coordinate transformation (proj4 underneath). */
export { wkidFromPrj } from './prj-wkid.js';
export {
  normalizeSpatialReference,
  type ResolvedSpatialReference,
  resolveSpatialReference,
  sameSpatialReference,
  spatialReferenceForWkid,
  wkidOf,
} from './spatial-reference.js';
export { createTransformer, type Transformer } from './transformer.js';
export { lonLatToWebMercator, MAX_MERCATOR_LATITUDE, webMercatorToLonLat } from './web-mercator.js';
export { canonicalWkid, knownWkidCount, proj4ForWkid } from './wkid-table.js';
