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
export async function rangeLayers(
  database: DatabaseHandle,
  layers: readonly DrawableLayer[],
  storageSR: SpatialReference,
  range: TileRange,
  atOnce: number,
): Promise<LayerFeatures[]> {
  const area = rangeBounds(range);
  const resolution = lodOf(range.level).resolution;
  const out: LayerFeatures[] = [];
  for (const layer of layers) {
    const bounds = queryBounds(area, maxSymbolReach(layer.drawingInfo), resolution);
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
