/**
 * A FeatureExtent map area names features instead of an extent: the extent of those features
 * (or, for a single point, a view of DefaultScale around it), grown by ExpandRatio. Resolved with
 * a query before the display maths, which then sees an ordinary MapExtent.
 */
import { geometryBounds, unionBounds } from '../../lib/geometry/index.js';
import type { Bounds } from '../../lib/geometry/types.js';
import { clientFault } from '../fault.js';
import type { ImageDisplay, MapDescription } from '../schema/generated-types.js';
import { queryMapLayer } from './layer-query.js';
import { featureLayerOf, type HostedMap, type MapServiceDeps } from './map-context.js';
import { DEFAULT_DPI, INCHES_PER_METER, type MapView, mapView, metersPerUnit } from './map-display.js';
import { envelopeN, fromSoapSpatialReference } from './wire-geometry.js';

export async function resolveMapArea(
  deps: MapServiceDeps,
  map: HostedMap,
  md: MapDescription,
  display: ImageDisplay | undefined,
): Promise<MapDescription> {
  const area = md.MapArea;
  if (area?.$type !== 'FeatureExtent' || !area.FeatureIDs?.length) return md;
  const sr = fromSoapSpatialReference(md.SpatialReference) ?? map.spatialReference;
  const layer = featureLayerOf(map, area.LayerID);
  const found = await queryMapLayer(deps, map, layer, {
    mode: 'features',
    objectIds: area.FeatureIDs,
    outFields: layer.catalog.objectIdField,
    outSR: sr,
  });
  const bounds = unionBounds(found.rows.map((r) => (r.shape ? geometryBounds(r.shape) : null)));
  if (!bounds)
    throw clientFault(`None of the features ${area.FeatureIDs.join(', ')} of layer ${layer.id} has a shape.`);
  const ratio = area.ExpandRatio > 0 ? area.ExpandRatio : 1;
  const [cx, cy] = [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2];
  let [hw, hh] = [((bounds[2] - bounds[0]) / 2) * ratio, ((bounds[3] - bounds[1]) / 2) * ratio];
  if (hw === 0 && hh === 0) {
    // A single point has no extent: show it at the default scale.
    const dpi = display?.ImageDPI || DEFAULT_DPI;
    const res =
      (area.DefaultScale > 0 ? area.DefaultScale : 10_000) / (dpi * INCHES_PER_METER * metersPerUnit(sr));
    [hw, hh] = [((display?.ImageWidth ?? 400) * res) / 2, ((display?.ImageHeight ?? 400) * res) / 2];
  }
  const extent: Bounds = [cx - hw, cy - hh, cx + hw, cy + hh];
  return { ...md, MapArea: { $type: 'MapExtent', Extent: envelopeN(extent) } };
}

/** The fitted view of a display request, its FeatureExtent (if any) resolved first. */
export async function displayView(
  deps: MapServiceDeps,
  map: HostedMap,
  md: MapDescription,
  display: ImageDisplay | undefined,
): Promise<MapView> {
  return mapView(await resolveMapArea(deps, map, md, display), display, map);
}
