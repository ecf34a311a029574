/**
 * Renders one bundle (a 128×128 block of tiles of one level): one feature query per layer for the
 * block (or, for a layer too large for that, per metatile, in pages), then 4×4 metatiles drawn once and
 * cut into tiles. Metatiles without features are skipped
 * before drawing, tiles without a painted pixel are neither encoded nor stored.
 */
import type { DrawableLayer, DrawnFeatures } from '../../db/repositories/layer-features.js';
import type { Bounds } from '../../lib/geometry/types.js';
import type { MarkerSpriteCache } from '../../lib/render/marker-sprites.js';
import { tilePainted } from '../../lib/render/metatile-crop.js';
import { isPacked, packedCount, packedPointsMeet } from '../../lib/render/packed-points.js';
import { encodeRgbaPng } from '../../lib/render/png-encode.js';
import { beginLayerDraw, type LayerDraw, renderTile } from '../../lib/render/render-tile.js';
import { maxSymbolReach, queryBounds } from '../../lib/render/symbol-reach.js';
import type { RgbaImage } from '../../lib/render/types.js';
import { BUNDLE_DIM, BundleBuilder } from '../../lib/tiles/compact-bundle.js';
import { metatilesInRange, metatileTiles } from '../../lib/tiles/metatile.js';
import {
  lodOf,
  ORIGIN_X,
  ORIGIN_Y,
  TILE_SIZE,
  type TileAddress,
  type TileRange,
  tileRange,
} from '../../lib/tiles/web-mercator.js';

export const METATILE = 4;

/**
 * About how many features of a layer a bundle reads and holds at once (about 170 bytes each as drawn,
 * plus the statement's text): a layer with more in a bundle's area is read for each metatile, and in
 * pages of about this many where a metatile has more (db/repositories/layer-features.ts featurePagesIn).
 * Tried with 1.7 million points on the embedded stack: the shallow bundles read every point at once
 * before (2.9 GB, statements past the heartbeat timeout).
 */
export const FEATURES_AT_ONCE = 250_000;

/**
 * FEATURES_AT_ONCE on the embedded PGlite, whose statements run on the worker's thread, which is also the
 * API's (`npm start`): a page of this many points takes about a quarter of the time a read of 171,075
 * did, so the API waits at most that long behind a build's read.
 */
export const PGLITE_FEATURES_AT_ONCE = 40_000;

/** How many features a bundle of a build on `database` reads at once. */
export const featuresAtOnceOn = (database: { kind: 'postgres' | 'pglite' }): number =>
  database.kind === 'pglite' ? PGLITE_FEATURES_AT_ONCE : FEATURES_AT_ONCE;

export interface BundleArea {
  level: number;
  row0: number;
  col0: number;
}

/** The tiles of a bundle that lie within the cache extent (grown by symbol reach), or undefined. */
export function bundleTileRange(area: BundleArea, extent: Bounds, reachPx: number): TileRange | undefined {
  const grown = queryBounds(extent, reachPx, lodOf(area.level).resolution);
  const r = tileRange(grown, area.level);
  const minRow = Math.max(r.minRow, area.row0);
  const maxRow = Math.min(r.maxRow, area.row0 + BUNDLE_DIM - 1);
  const minCol = Math.max(r.minCol, area.col0);
  const maxCol = Math.min(r.maxCol, area.col0 + BUNDLE_DIM - 1);
  if (minRow > maxRow || minCol > maxCol) return undefined;
  return { level: area.level, minRow, maxRow, minCol, maxCol };
}

/** Map bounds of a tile range. */
export function rangeBounds(r: TileRange): Bounds {
  const span = lodOf(r.level).resolution * TILE_SIZE;
  return [
    ORIGIN_X + r.minCol * span,
    ORIGIN_Y - (r.maxRow + 1) * span,
    ORIGIN_X + (r.maxCol + 1) * span,
    ORIGIN_Y - r.minRow * span,
  ];
}

/**
 * A layer to draw: its features read for the whole range (`features`), or read for each metatile by
 * `read` (in one or several pages, drawn as they come), for a layer too large to hold for a bundle.
 * Points drawn without attributes may come packed (lib/render/packed-points.ts).
 */
export type LayerFeatures = {
  layer: Pick<DrawableLayer, 'drawingInfo' | 'geometryType'>;
  sprites: MarkerSpriteCache;
} & (
  | { features: DrawnFeatures; read?: undefined }
  | { features?: undefined; read: (area: Bounds) => AsyncIterable<DrawnFeatures> }
);

/** How many features a read gave. */
export const drawnCount = (f: DrawnFeatures): number => (isPacked(f) ? packedCount(f) : f.length);

export interface RenderedTile extends TileAddress {
  png: Uint8Array;
}

const meets = (a: Bounds, b: Bounds): boolean => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

/**
 * Metatiles whose tiles may be encoding at once: the next metatile is drawn (on this thread) while the
 * previous ones' tiles are encoded (by sharp, on libuv's threads), instead of each waiting for the last.
 * Each holds its 4×4-tile RGBA buffer (4 MiB) until its tiles are encoded.
 */
const METATILES_IN_FLIGHT = 3;

/**
 * Part `index` of `of` of a range's metatiles: every `of`-th metatile in the range's order, from the
 * `index`-th, so parts drawn side by side (render-threads.ts) share a cluster of features evenly.
 */
export interface RangeShare {
  index: number;
  of: number;
}

/**
 * Draws every non-empty tile of `range` (of its metatiles in `share`, when given), calling `onTile` for
 * each and `onMetatile` as each metatile's tiles are done (for heartbeats). Layers are drawn in order
 * onto one buffer per metatile.
 */
export async function renderRange(
  range: TileRange,
  layers: LayerFeatures[],
  pictures: ReadonlyMap<string, RgbaImage>,
  onTile: (tile: RenderedTile) => Promise<void> | void,
  onMetatile: (done: number) => void,
  share: RangeShare = { index: 0, of: 1 },
): Promise<{ tiles: number; metatiles: number }> {
  const resolution = lodOf(range.level).resolution;
  const reaches = layers.map((l) => maxSymbolReach(l.layer.drawingInfo));
  let tiles = 0;
  let metatiles = 0;
  let done = 0;
  const inFlight: Promise<void>[] = [];
  let rgba: Uint8Array | undefined;
  const settle = async (all: Promise<void>[]) => {
    // Every pending encode is awaited before a failure is thrown: none is left running unobserved.
    const results = await Promise.allSettled(all);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  };
  try {
    let order = 0;
    for (const meta of metatilesInRange(range, METATILE)) {
      if (order++ % share.of !== share.index) continue;
      metatiles++;
      const encodes: Promise<void>[] = [];
      // The buffer is cleared when the metatile's first feature is drawn: a metatile without features
      // is neither cleared nor cut. Every tile's rows are copied out when its encode starts, so one
      // buffer serves every metatile.
      let target: Uint8Array | undefined;
      const canvas = (): Uint8Array => {
        if (target) return target;
        const size = meta.width * meta.height * 4;
        if (rgba?.length === size) rgba.fill(0);
        else rgba = new Uint8Array(size);
        target = rgba;
        return target;
      };
      for (let i = 0; i < layers.length; i++) {
        const l = layers[i];
        const area = queryBounds(meta.bounds, reaches[i], resolution);
        const input = {
          drawingInfo: l.layer.drawingInfo,
          geometryType: l.layer.geometryType,
          envelope: meta.bounds,
          width: meta.width,
          height: meta.height,
          sprites: l.sprites,
          pictures,
        };
        if (l.features) {
          const all = l.features;
          if (isPacked(all)) {
            if (!packedPointsMeet(all, area)) continue;
            const layer = beginLayerDraw({ ...input, target: canvas() });
            layer.drawPoints(all, area);
            layer.finish();
            continue;
          }
          const features = all.filter((f) => meets(f.bounds, area));
          if (features.length > 0) renderTile({ ...input, features, target: canvas() });
          continue;
        }
        let layer: LayerDraw | undefined;
        for await (const page of l.read(area)) {
          if (drawnCount(page) === 0) continue;
          layer ??= beginLayerDraw({ ...input, target: canvas() });
          if (isPacked(page)) layer.drawPoints(page);
          else layer.draw(page);
        }
        layer?.finish();
      }
      if (target) {
        const drawn = target;
        for (const t of metatileTiles(meta, range)) {
          // Most tiles of a metatile at the data's edge are empty: look before copying.
          if (!tilePainted(drawn, meta.width, t.col - meta.col0, t.row - meta.row0, TILE_SIZE)) continue;
          // The tile's rows are read straight out of the metatile: no copy of the tile first.
          const x0 = (t.col - meta.col0) * TILE_SIZE;
          const y0 = (t.row - meta.row0) * TILE_SIZE;
          encodes.push(
            encodeRgbaPng(drawn, meta.width, x0, y0, TILE_SIZE, TILE_SIZE).then(async (png) => {
              tiles++;
              await onTile({ ...t, png });
            }),
          );
        }
      }
      const finished = settle(encodes).then(() => onMetatile(++done));
      finished.catch(() => {}); // observed below, in order
      inFlight.push(finished);
      if (inFlight.length >= METATILES_IN_FLIGHT) await inFlight.shift();
    }
    await settle(inFlight.splice(0));
  } finally {
    // After a failure, let the encodes still running finish before the caller moves on.
    if (inFlight.length > 0) await Promise.allSettled(inFlight);
  }
  return { tiles, metatiles };
}

/** A PNG of one tile's straight RGBA pixels (TILE_SIZE×TILE_SIZE). */
export function encodePng(rgba: Uint8Array): Promise<Uint8Array> {
  return encodeRgbaPng(rgba, TILE_SIZE, 0, 0, TILE_SIZE, TILE_SIZE);
}

/** Collects rendered tiles into a Compact V2 bundle. */
export function bundleCollector(): { builder: BundleBuilder; onTile: (t: RenderedTile) => void } {
  const builder = new BundleBuilder();
  return { builder, onTile: (t) => void builder.add(t.row, t.col, t.png) };
}
