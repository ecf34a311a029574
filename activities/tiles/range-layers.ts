/**
 * The layers a tile range is drawn from, each either read for the whole range at once or, when more
 * features than `atOnce` are there, read for each metatile (in pages where a metatile has more): see
 * render-bundle.ts FEATURES_AT_ONCE. Where the layer's count spread over its extent puts more there, the
 * range is not read at once at all; elsewhere a read of at most `atOnce` + 1 features tells, since a
 * layer's features may be clustered.
 */
import type { DatabaseHandle } from '../../db/client.js';
import {
  type DrawableLayer,
  estimatedFeaturesIn,
  featuresInParts,
  featuresUpTo,
} from '../../db/repositories/layer-features.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { MarkerSpriteCache } from '../../lib/render/marker-sprites.js';
import { maxSymbolReach, queryBounds } from '../../lib/render/symbol-reach.js';
import { lodOf, type TileRange } from '../../lib/tiles/web-mercator.js';
import { drawnCount, type LayerFeatures, rangeBounds } from './render-bundle.js';

/** The layers with something to draw in `range`; a layer read per metatile is always included. */
export function rangeLayers(
  database: DatabaseHandle,
  layers: readonly DrawableLayer[],
  storageSR: SpatialReference,
  range: TileRange,
  atOnce: number,
): Promise<LayerFeatures[]> {
  return rangesLayers(database, layers, storageSR, [range], atOnce);
}

/**
 * True when one read of the box around `ranges` (rangesLayers) reads little besides them: the box is at
 * most four times the area the ranges cover together (overlaps counted twice). A city's low levels lie
 * one inside the next (the box is the largest of them); a deep level's bundles at opposite edges of a
 * country's extent would read the whole country between them.
 */
export function rangesLieTogether(ranges: readonly TileRange[]): boolean {
  if (ranges.length < 2) return true;
  const boxes = ranges.map(rangeBounds);
  const area = (b: Bounds) => (b[2] - b[0]) * (b[3] - b[1]);
  const box: Bounds = [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
  return area(box) <= 4 * boxes.reduce((sum, b) => sum + area(b), 0);
}

/**
 * The layers with something to draw in any of `ranges` (of one level or several), each read once for
 * all of them: a layer's read covers every range's area grown by its symbol reach at that range's
 * level, and each metatile drawn takes its own features out of it. A cache build's small bundles
 * (the low levels, where every bundle shows the whole data) share one read this way.
 */
export async function rangesLayers(
  database: DatabaseHandle,
  layers: readonly DrawableLayer[],
  storageSR: SpatialReference,
  ranges: readonly TileRange[],
  atOnce: number,
): Promise<LayerFeatures[]> {
  const out: LayerFeatures[] = [];
  if (ranges.length === 0) return out;
  for (const layer of layers) {
    const reach = maxSymbolReach(layer.drawingInfo);
    const bounds = ranges
      .map((r) => queryBounds(rangeBounds(r), reach, lodOf(r.level).resolution))
      .reduce(
        (a, b): Bounds => [
          Math.min(a[0], b[0]),
          Math.min(a[1], b[1]),
          Math.max(a[2], b[2]),
          Math.max(a[3], b[3]),
        ],
      );
    const sprites = new MarkerSpriteCache(96);
    const features =
      estimatedFeaturesIn(layer, bounds) <= atOnce
        ? await featuresUpTo(database, layer, storageSR, bounds, atOnce, true)
        : undefined;
    if (!features) {
      const read = (at: Bounds) => featuresInParts(database, layer, storageSR, at, atOnce, true);
      out.push({ layer, read, sprites });
    } else if (drawnCount(features) > 0) out.push({ layer, features, sprites });
  }
  return out;
}
