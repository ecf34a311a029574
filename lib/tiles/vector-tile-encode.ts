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
import { mercatorToLonLat, type TileAddress, type TileRange } from './web-mercator.js';

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
  /**
   * Every tile of `range` in quadtree order (Morton order of column and row), each with its encoded bytes
   * or undefined. The index cuts a tile out of its parent, and keeps every tile it cut on the way down;
   * here what it cut for a part of the range is let go once the walk has left that part, so a dense
   * range holds one path down the quadtree (the four tiles of each level on it) instead of every
   * level's copy of its features. The same bytes as `tile` for each address; ask each address once,
   * and nothing else of the set afterwards.
   */
  tilesOf(range: TileRange): Generator<{ address: TileAddress; pbf: Uint8Array | undefined }>;
  /** Tiles the indexes hold now (cut and not let go). */
  held(): number;
}

/** The index's own tiles, by id; its code calls them part of its interface, its types leave them out. */
type WithTiles = GeoJSONVT & { tiles: Record<number, unknown> };

/** geojson-vt's tile id. */
const tileId = (z: number, x: number, y: number) => ((1 << z) * y + x) * 32 + z;

/** A tile's column and row bits interleaved, column first: sorting by it walks the quadtree depth first. */
function morton(col: number, row: number): number {
  let key = 0;
  for (let bit = 23; bit >= 0; bit--) key = key * 4 + ((col >> bit) & 1) * 2 + ((row >> bit) & 1);
  return key;
}

/** Bits needed for n (0 for 0). */
const bitLength = (n: number) => (n === 0 ? 0 : 32 - Math.clz32(n));

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
  const tile = (level: number, row: number, col: number): Uint8Array | undefined => {
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
  };
  /**
   * Lets go of what each index cut within the quadtree cell (z, x, y). A walk in Morton order has asked
   * for every tile under the cell once it leaves it; an address below the cell asked for later would
   * find its nearest remaining ancestor without the features to cut it from, so none may be.
   */
  const release = (z: number, x: number, y: number) => {
    for (const { index } of indexes) {
      const { tiles, tileCoords } = index as WithTiles;
      let kept = 0;
      for (const c of tileCoords) {
        const under = c.z >= z && c.x >> (c.z - z) === x && c.y >> (c.z - z) === y;
        if (under) delete tiles[tileId(c.z, c.x, c.y)];
        else tileCoords[kept++] = c;
      }
      tileCoords.length = kept;
    }
  };
  return {
    tile,
    held: () => indexes.reduce((n, { index }) => n + index.tileCoords.length, 0),
    *tilesOf(range) {
      const { level } = range;
      const order: { key: number; row: number; col: number }[] = [];
      for (let row = range.minRow; row <= range.maxRow; row++)
        for (let col = range.minCol; col <= range.maxCol; col++)
          order.push({ key: morton(col, row), row, col });
      order.sort((a, b) => a.key - b.key);
      for (let i = 0; i < order.length; i++) {
        const { row, col } = order[i];
        yield { address: { level, row, col }, pbf: tile(level, row, col) };
        const next = order[i + 1];
        // The walk leaves the cell one level below the deepest one this tile and the next share.
        const shared = next ? level - bitLength((col ^ next.col) | (row ^ next.row)) : -1;
        const depth = Math.min(level, shared + 1);
        release(depth, col >> (level - depth), row >> (level - depth));
      }
    },
  };
}
