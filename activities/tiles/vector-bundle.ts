/**
 * Vector tiles of a range of one level (a bundle, or the touched part of one on refresh): one feature
 * query per layer for the range grown by the tile buffer, every field read, then each tile encoded as
 * a Mapbox Vector Tile and gzip-compressed (as .vtpk tiles are, so the server sends them with
 * Content-Encoding gzip). Tiles without a feature are neither encoded nor stored. A range where a layer
 * has more features than a build holds at once is encoded in quarters, down to single tiles; a single
 * tile with that many is refused, as ArcGIS refuses a tile with too many vertices.
 */
import { gzipSync } from 'node:zlib';
import type { DatabaseHandle } from '../../db/client.js';
import {
  type DrawableLayer,
  drawableLayers,
  estimatedFeaturesIn,
  featureCountUpTo,
  featuresIn,
  type LocatedFeature,
} from '../../db/repositories/layer-features.js';
import { listLayers } from '../../db/repositories/services.js';
import { badRequest } from '../../lib/errors.js';
import type { SpatialReference } from '../../lib/geometry/types.js';
import { queryBounds } from '../../lib/render/symbol-reach.js';
import { MAX_TILE_SIZE } from '../../lib/tiles/compact-bundle.js';
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

/**
 * The most features of one layer a vector tile range is encoded from at once, and so the most a tile
 * may hold: GDAL's MVT driver and tippecanoe stop a tile at this many features by default. With every
 * field read, each feature takes a few hundred bytes as read and again in the tiling index.
 */
export const VECTOR_FEATURES_AT_ONCE = 200_000;

/**
 * How long the tile loop runs before letting the event loop turn: cutting and compressing the tiles of
 * a dense range is seconds of work on the worker's thread, which also beats the activity's heartbeat
 * (and, on the embedded stack, serves the API). Tried with 1.7 million points: without it a bundle held
 * the thread past the heartbeat timeout and was retried while it still ran.
 */
const RUN_MS = 50;

/**
 * Encodes every tile of `range` that has features; `maxLevel` is the cache's last level. A range where
 * a layer has more than `atOnce` features is encoded in quarters (each tile's features are the same
 * whichever range it is encoded in: whole features are read, then cut per tile), and a single tile
 * with more is refused with a 400 naming it.
 */
export async function encodeVectorRange(
  database: DatabaseHandle,
  source: VectorSource,
  range: TileRange,
  maxLevel: number,
  onTile: (tile: VectorTile) => Promise<void> | void,
  onProgress: (tilesVisited: number) => void,
  atOnce = VECTOR_FEATURES_AT_ONCE,
): Promise<{ tiles: number; bytes: number }> {
  const resolution = lodOf(range.level).resolution;
  let tiles = 0;
  let bytes = 0;
  let visited = 0;
  let ranSince = performance.now();
  const encode = async (part: TileRange): Promise<void> => {
    const area = queryBounds(rangeBounds(part), BUFFER_PX, resolution);
    // Counted before anything is read (unless the whole layer is few enough): a range with too many is
    // cut without reading every field of the features it would have to drop.
    for (const { layer } of source.layers) {
      const few =
        layer.featureCount <= atOnce ||
        (estimatedFeaturesIn(layer, area) <= atOnce &&
          (await featureCountUpTo(database, layer, source.storageSR, area, atOnce)) <= atOnce);
      if (few) continue;
      const parts = quarters(part);
      if (parts.length === 1) throw tooDense(part, layer, atOnce);
      for (const p of parts) await encode(p);
      return;
    }
    const inputs: VectorLayerInput[] = [];
    for (const { layer, tileLayer, objectIdField } of source.layers) {
      const located = await featuresIn(database, layer, source.storageSR, area);
      if (located.length > 0)
        inputs.push({ name: tileLayer, features: tileFeatures(located, objectIdField) });
    }
    const set = inputs.length > 0 ? vectorTileSet(inputs, maxLevel) : undefined;
    const walk = set ? set.tilesOf(part) : empty(part);
    for (const { address: t, pbf } of walk) {
      if (++visited % 1024 === 0) onProgress(visited);
      if (performance.now() - ranSince > RUN_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        ranSince = performance.now();
      }
      if (!pbf) continue;
      const gz = gzipSync(pbf);
      if (gz.length > MAX_TILE_SIZE) throw tooLarge(t, gz.length);
      tiles++;
      bytes += gz.length;
      await onTile({ ...t, bytes: gz });
    }
  };
  await encode(range);
  return { tiles, bytes };
}

/** The tiles of a range where no layer has a feature. */
function* empty(range: TileRange): Generator<{ address: TileAddress; pbf: undefined }> {
  for (const address of tilesInRange(range)) yield { address, pbf: undefined };
}

/**
 * The features as tile features, in object id order: the query gives them in whatever order its plan
 * scans, which can change from one build to the next (a tile's features, and so its bytes and which
 * feature a client draws on top, with it).
 */
function tileFeatures(located: readonly LocatedFeature[], objectIdField: string): VectorFeature[] {
  return located
    .map((f) => {
      const properties: VectorFeature['properties'] = {};
      // The object id is the feature's id in the tile, not repeated as an attribute.
      for (const [k, v] of Object.entries(f.attributes ?? {}))
        if (k !== objectIdField) properties[k] = tileValue(v);
      return { id: Number(f.attributes?.[objectIdField]), geometry: f.geometry, properties };
    })
    .sort((a, b) => a.id - b.id);
}

/** First to last cut in two (inclusive bounds), or kept whole when it is one. */
function halves(first: number, last: number): [number, number][] {
  if (first >= last) return [[first, last]];
  const mid = Math.floor((first + last) / 2);
  return [
    [first, mid],
    [mid + 1, last],
  ];
}

/** A range cut in up to four by halving its rows and columns; a single tile stays whole. */
export function quarters(r: TileRange): TileRange[] {
  const rows = halves(r.minRow, r.maxRow);
  const cols = halves(r.minCol, r.maxCol);
  return rows.flatMap(([minRow, maxRow]) =>
    cols.map(([minCol, maxCol]) => ({ level: r.level, minRow, maxRow, minCol, maxCol })),
  );
}

/** A tile the build cannot make: a 400 naming it, with what to do instead. */
const refused = (t: TileAddress, why: string, advice = '') =>
  badRequest(`Vector tile ${t.level}/${t.row}/${t.col} ${why}.`, [
    `Build the vector tiles from a level where fewer features share a tile (publishParameters levels)${advice}.`,
  ]);

const tooLarge = (t: TileAddress, size: number) =>
  refused(
    t,
    `is ${size.toLocaleString('en-US')} bytes compressed, more than a tile of a compact bundle holds (${MAX_TILE_SIZE.toLocaleString('en-US')})`,
  );

const tooDense = (t: TileRange, layer: DrawableLayer, atOnce: number) =>
  refused(
    { level: t.level, row: t.minRow, col: t.minCol },
    `would hold more than ${atOnce.toLocaleString('en-US')} features of layer '${layer.name}'`,
    ', or publish fewer features',
  );
