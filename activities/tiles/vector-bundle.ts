/**
 * Vector tiles of a range of one level (a bundle, or the touched part of one on refresh): one feature
 * query per layer for the range grown by the tile buffer, every field read, then each tile encoded as
 * a Mapbox Vector Tile and gzip-compressed (as .vtpk tiles are, so the server sends them with
 * Content-Encoding gzip). Tiles without a feature are neither encoded nor stored.
 */
import { gzipSync } from 'node:zlib';
import type { DatabaseHandle } from '../../db/client.js';
import { type DrawableLayer, drawableLayers, featuresIn } from '../../db/repositories/layer-features.js';
import { listLayers } from '../../db/repositories/services.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { queryBounds } from '../../lib/render/symbol-reach.js';
import {
  VECTOR_TILE_BUFFER,
  VECTOR_TILE_EXTENT,
  type VectorFeature,
  type VectorLayerInput,
  vectorTileSet,
} from '../../lib/tiles/vector-tile-encode.js';
import {
  lodOf,
  TILE_SIZE,
  type TileAddress,
  type TileRange,
  tilesInRange,
} from '../../lib/tiles/web-mercator.js';
import { rangeBounds } from './render-bundle.js';

export interface VectorSource {
  storageSR: SpatialReference;
  /** Drawable layers reading every field, with the name of their layer in the tiles. */
  layers: { layer: DrawableLayer; tileLayer: string; objectIdField: string }[];
}

export interface VectorTile extends TileAddress {
  /** gzip-compressed PBF. */
  bytes: Uint8Array;
}

/** The buffer in 256-pixel units, plus one for rounding. */
const BUFFER_PX = (VECTOR_TILE_BUFFER / VECTOR_TILE_EXTENT) * TILE_SIZE + 1;

/** Layer names as tile layers: a name used twice gets its layer id appended. */
export function tileLayerNames(layers: readonly { layerId: number; name: string }[]): string[] {
  const seen = new Map<string, number>();
  for (const l of layers) seen.set(l.name, (seen.get(l.name) ?? 0) + 1);
  return layers.map((l) => ((seen.get(l.name) ?? 0) > 1 ? `${l.name}_${l.layerId}` : l.name));
}

export async function vectorSource(database: DatabaseHandle, serviceItemId: string): Promise<VectorSource> {
  const source = await drawableLayers(database, serviceItemId);
  const rows = await listLayers(database.db, serviceItemId);
  const names = tileLayerNames(source.layers);
  return {
    storageSR: source.storageSR,
    layers: source.layers.map((layer, i) => {
      const columns = rows.find((r) => r.layerId === layer.layerId)?.columns ?? layer.rendererColumns;
      return {
        layer: { ...layer, rendererColumns: columns },
        tileLayer: names[i],
        objectIdField: columns.find((c) => c.column === 'objectid')?.name ?? 'OBJECTID',
      };
    }),
  };
}

/** A stored value as a vector tile value: dates as epoch milliseconds, big numbers as numbers. */
function tileValue(v: unknown): string | number | boolean | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Date) return v.getTime();
  return JSON.stringify(v);
}

/** Encodes every tile of `range` that has features; `maxLevel` is the cache's last level. */
export async function encodeVectorRange(
  database: DatabaseHandle,
  source: VectorSource,
  range: TileRange,
  maxLevel: number,
  onTile: (tile: VectorTile) => Promise<void> | void,
  onProgress: (tilesVisited: number) => void,
): Promise<{ tiles: number; bytes: number }> {
  const area = queryBounds(rangeBounds(range), BUFFER_PX, lodOf(range.level).resolution);
  const inputs: VectorLayerInput[] = [];
  for (const { layer, tileLayer, objectIdField } of source.layers) {
    const located = await featuresIn(database, layer, source.storageSR, area);
    if (located.length === 0) continue;
    const features: VectorFeature[] = located.map((f) => {
      const properties: VectorFeature['properties'] = {};
      // The object id is the feature's id in the tile, not repeated as an attribute.
      for (const [k, v] of Object.entries(f.attributes ?? {}))
        if (k !== objectIdField) properties[k] = tileValue(v);
      return { id: Number(f.attributes?.[objectIdField]), geometry: f.geometry, properties };
    });
    inputs.push({ name: tileLayer, features });
  }
  if (inputs.length === 0) return { tiles: 0, bytes: 0 };
  const set = vectorTileSet(inputs, maxLevel);
  let tiles = 0;
  let bytes = 0;
  let visited = 0;
  for (const t of tilesInRange(range)) {
    if (++visited % 1024 === 0) onProgress(visited);
    const pbf = set.tile(t.level, t.row, t.col);
    if (!pbf) continue;
    const gz = gzipSync(pbf);
    tiles++;
    bytes += gz.length;
    await onTile({ ...t, bytes: gz });
  }
  return { tiles, bytes };
}
