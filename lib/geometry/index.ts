/** The geometry toolkit: pure planar operations on Esri JSON geometries. */
export * from './bounds.js';
export * from './contains.js';
export * from './dimensions.js';
export * from './distance.js';
export * from './geojson.js';
export type * from './geojson-types.js';
export * from './intersects.js';
export * from './kinds.js';
export * from './map-coordinates.js';
export * from './point-in-polygon.js';
export * from './quantize.js';
export { crosses, overlaps, touches } from './relate.js';
export * from './rings.js';
export * from './simplify.js';
export * from './spatial-relation.js';
export type * from './types.js';
export { WEB_MERCATOR, WGS84 } from './types.js';
