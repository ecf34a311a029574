/** Esri JSON geometry shapes, as the REST and SOAP surfaces carry them (spatial reference kept apart). */
export interface SpatialReference {
  wkid?: number;
  latestWkid?: number;
  wkt?: string;
}

export interface EsriPoint {
  x: number;
  y: number;
  z?: number;
  m?: number;
  spatialReference?: SpatialReference;
}

export interface EsriMultipoint {
  points: number[][];
  spatialReference?: SpatialReference;
}

export interface EsriPolyline {
  paths: number[][][];
  spatialReference?: SpatialReference;
}

export interface EsriPolygon {
  rings: number[][][];
  spatialReference?: SpatialReference;
}

export interface EsriEnvelope {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  spatialReference?: SpatialReference;
}

export type EsriGeometry = EsriPoint | EsriMultipoint | EsriPolyline | EsriPolygon | EsriEnvelope;

export type EsriGeometryType =
  | 'esriGeometryPoint'
  | 'esriGeometryMultipoint'
  | 'esriGeometryPolyline'
  | 'esriGeometryPolygon'
  | 'esriGeometryEnvelope';

/** Axis-aligned bounds [xmin, ymin, xmax, ymax]. */
export type Bounds = [number, number, number, number];

export const WEB_MERCATOR: SpatialReference = { wkid: 102100, latestWkid: 3857 };
export const WGS84: SpatialReference = { wkid: 4326, latestWkid: 4326 };
