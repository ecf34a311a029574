/**
 * The layers a tile range is drawn from, each either read for the whole range at once or, when more
 * features are expected there than `atOnce`, read for each metatile (in pages where a metatile expects
 * more): see render-bundle.ts FEATURES_AT_ONCE.
 */
import type { DatabaseHandle } from '../../db/client.js';
import {
  type DrawableLayer,
  estimatedFeaturesIn,
  featuresIn,
  featuresInParts,
} from '../../db/repositories/layer-features.js';
import type { Bounds, SpatialReference } from '../../lib/geometry/types.js';
import { MarkerSpriteCache } from '../../lib/render/marker-sprites.js';
import { maxSymbolReach, queryBounds } from '../../lib/render/symbol-reach.js';
import { lodOf, type TileRange } from '../../lib/tiles/web-mercator.js';
import { type LayerFeatures, rangeBounds } from './render-bundle.js';

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
    if (estimatedFeaturesIn(layer, bounds) > atOnce) {
      const read = (at: Bounds) => featuresInParts(database, layer, storageSR, at, atOnce);
      out.push({ layer, read, sprites });
      continue;
    }
    const features = await featuresIn(database, layer, storageSR, bounds);
    if (features.length > 0) out.push({ layer, features, sprites });
  }
  return out;
}
