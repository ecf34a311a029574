/** The GeoJSON geometry objects of RFC 7946 (positions are [x, y] or [x, y, z]). */
export type Position = number[];

export interface GeoJSONPoint {
  type: 'Point';
  coordinates: Position;
}
export interface GeoJSONMultiPoint {
  type: 'MultiPoint';
  coordinates: Position[];
}
export interface GeoJSONLineString {
  type: 'LineString';
  coordinates: Position[];
}
export interface GeoJSONMultiLineString {
  type: 'MultiLineString';
  coordinates: Position[][];
}
export interface GeoJSONPolygon {
  type: 'Polygon';
  coordinates: Position[][];
}
export interface GeoJSONMultiPolygon {
  type: 'MultiPolygon';
  coordinates: Position[][][];
}
export interface GeoJSONGeometryCollection {
  type: 'GeometryCollection';
  geometries: GeoJSONGeometry[];
}

export type GeoJSONGeometry =
  | GeoJSONPoint
  | GeoJSONMultiPoint
  | GeoJSONLineString
  | GeoJSONMultiLineString
  | GeoJSONPolygon
  | GeoJSONMultiPolygon
  | GeoJSONGeometryCollection;

export interface GeoJSONFeature {
  type: 'Feature';
  id?: string | number;
  geometry: GeoJSONGeometry | null;
  properties: Record<string, unknown> | null;
}
