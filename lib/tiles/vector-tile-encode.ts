/**
 * Mapbox Vector Tiles from feature layers: features (Web Mercator, Esri JSON) are cut per tile with
 * geojson-vt (clipped with a buffer, simplified per level with a tolerance of a few tile units, none at
 * the cache's last level) and encoded with vt-pbf (spec version 2, extent 4096), one tile layer per
 * feature layer. A tile where no layer has a feature is not made at all.
 */

import type { Feature, FeatureCollection } from 'geojson';
import GeoJSONVT from 'geojson-vt';
import { fromGeojsonVt } from 'vt-pbf';
import { esriToGeoJSON } from '../geometry/geojson.js';
import type { GeoJSONGeometry, Position } from '../geometry/geojson-types.js';
import type { EsriGeometry } from '../geometry/types.js';
import { mercatorToLonLat } from './web-mercator.js';

export const VECTOR_TILE_EXTENT = 4096;
/** Tile units kept around each tile, so lines and polygons join without seams and points near edges show. */
export const VECTOR_TILE_BUFFER = 64;
/** Simplification tolerance in tile units at every level but the last. */
export const VECTOR_TILE_TOLERANCE = 3;

export interface VectorFeature {
  id: number;
  /** Web Mercator. */
  geometry: EsriGeometry;
  properties: Record<string, string | number | boolean | null>;
}

export interface VectorLayerInput {
  /** The tile layer's name (the feature layer's name; styles refer to it as source-layer). */
  name: string;
  features: readonly VectorFeature[];
}

export interface VectorTileSet {
  /** The encoded tile, or undefined when no layer has a feature in it. */
  tile(level: number, row: number, col: number): Uint8Array | undefined;
}

/** Web Mercator metres → longitude/latitude degrees (the sphere geojson-vt projects from). */
const toLonLat = (p: Position): Position => mercatorToLonLat(p[0], p[1]);

function geographic(g: GeoJSONGeometry): GeoJSONGeometry | null {
  switch (g.type) {
    case 'Point':
      return { type: 'Point', coordinates: toLonLat(g.coordinates) };
    case 'MultiPoint':
    case 'LineString':
      return { ...g, coordinates: g.coordinates.map(toLonLat) } as GeoJSONGeometry;
    case 'MultiLineString':
    case 'Polygon':
      return { ...g, coordinates: g.coordinates.map((r) => r.map(toLonLat)) } as GeoJSONGeometry;
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: g.coordinates.map((p) => p.map((r) => r.map(toLonLat))) };
    default:
      return null;
  }
}

/**
 * Indexes the layers' features for tiles up to `maxLevel` (the cache's last level, where nothing is
 * simplified). Callers pass the features around the tiles they will ask for, buffer included.
 */
export function vectorTileSet(layers: readonly VectorLayerInput[], maxLevel: number): VectorTileSet {
  const indexes: { name: string; index: GeoJSONVT }[] = [];
  for (const layer of layers) {
    const features: Feature[] = [];
    for (const f of layer.features) {
      const esri = esriToGeoJSON(f.geometry);
      const geometry = esri && geographic(esri);
      if (geometry)
        features.push({ type: 'Feature', id: f.id, geometry, properties: f.properties } as Feature);
    }
    if (features.length === 0) continue;
    const collection: FeatureCollection = { type: 'FeatureCollection', features };
    indexes.push({
      name: layer.name,
      index: new GeoJSONVT(collection, {
        maxZoom: maxLevel,
        indexMaxZoom: 0,
        extent: VECTOR_TILE_EXTENT,
        buffer: VECTOR_TILE_BUFFER,
        tolerance: VECTOR_TILE_TOLERANCE,
      }),
    });
  }
  return {
    tile(level, row, col) {
      const tileLayers: Record<string, { features: readonly unknown[] }> = {};
      let any = false;
      for (const { name, index } of indexes) {
        const t = index.getTile(level, col, row);
        if (t && t.features.length > 0) {
          tileLayers[name] = t;
          any = true;
        }
      }
      if (!any) return undefined;
      return fromGeojsonVt(tileLayers, { version: 2, extent: VECTOR_TILE_EXTENT });
    },
  };
}
