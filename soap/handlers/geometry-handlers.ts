/** ComputeScale, ComputeDistance, ToMapPoints and FromMapPoints over the fitted map view. */
import type { SpatialReference as EsriSpatialReference } from '../../lib/geometry/types.js';
import { clientFault } from '../fault.js';
import type { geoUnits, Point } from '../schema/generated-types.js';
import type { SoapHandlerGroup } from '../service-types.js';
import { displayView } from './map-area.js';
import { type MapServerLocals, type MapServiceDeps, openMapFor } from './map-context.js';
import { METERS_PER_DEGREE, metersPerUnit, toMap, toScreen } from './map-display.js';
import { fromSoapSpatialReference, pointN, toSoapSpatialReference } from './wire-geometry.js';

/** The largest xs:int. */
const INT_MAX = 2_147_483_647;

export type GeometryOperations = 'ComputeScale' | 'ComputeDistance' | 'ToMapPoints' | 'FromMapPoints';

const METERS_PER: Record<geoUnits, number | null> = {
  geoUnknownUnits: null,
  geoInches: 0.0254,
  geoPoints: 0.0254 / 72,
  geoFeet: 0.3048,
  geoYards: 0.9144,
  geoMiles: 1609.344,
  geoNauticalMiles: 1852,
  geoMillimeters: 0.001,
  geoCentimeters: 0.01,
  geoMeters: 1,
  geoKilometers: 1000,
  geoDecimalDegrees: METERS_PER_DEGREE,
  geoDecimeters: 0.1,
};

const EARTH_RADIUS = 6378137;

function xy(p: Point, name: string): { x: number; y: number; sr: EsriSpatialReference | null } {
  if (p.$type !== 'PointN') throw clientFault(`${name} must be a PointN.`);
  return { x: p.X, y: p.Y, sr: fromSoapSpatialReference(p.SpatialReference) };
}

/**
 * Distance in metres: great-circle between geographic points, planar in projected systems (the
 * distance the map shows, as the real server measures it in map units).
 */
export function distanceMeters(
  a: { x: number; y: number },
  b: { x: number; y: number },
  sr: EsriSpatialReference,
) {
  if (metersPerUnit(sr) === 1) return Math.hypot(b.x - a.x, b.y - a.y);
  const rad = Math.PI / 180;
  const dLat = (b.y - a.y) * rad;
  const dLon = (b.x - a.x) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.y * rad) * Math.cos(b.y * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function createGeometryHandlers(
  deps: MapServiceDeps,
): SoapHandlerGroup<GeometryOperations, MapServerLocals> {
  return {
    async ComputeScale(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapDescription.Name);
      return (await displayView(deps, map, q.MapDescription, q.MapImageDisplay)).scale;
    },
    async ComputeDistance(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapName);
      const a = xy(q.FromPoint, 'FromPoint');
      const b = xy(q.ToPoint, 'ToPoint');
      const sr = a.sr ?? map.spatialReference;
      const meters = distanceMeters(a, b, sr);
      const per = METERS_PER[q.Units];
      if (per === undefined) throw clientFault(`Invalid units: ${q.Units}.`);
      // Unknown units means the map's own units.
      return meters / (per ?? metersPerUnit(sr));
    },
    async ToMapPoints(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapDescription.Name);
      const view = await displayView(deps, map, q.MapDescription, q.MapImageDisplay);
      const xs = q.ScreenXValues ?? [];
      const ys = q.ScreenYValues ?? [];
      if (xs.length !== ys.length) throw clientFault('ScreenXValues and ScreenYValues differ in length.');
      const sr = toSoapSpatialReference(view.sr);
      return {
        $type: 'MultipointN',
        HasID: false,
        HasZ: false,
        HasM: false,
        PointArray: xs.map((px, i) => {
          const [x, y] = toMap(view, px, ys[i]);
          return pointN(x, y);
        }),
        SpatialReference: sr,
      };
    },
    async FromMapPoints(q, ctx) {
      const map = await openMapFor(deps, ctx, q.MapDescription.Name);
      const view = await displayView(deps, map, q.MapDescription, q.MapImageDisplay);
      if (q.MapPoints.$type !== 'MultipointN') throw clientFault('MapPoints must be a MultipointN.');
      const screen = (q.MapPoints.PointArray ?? []).map((p, i) => {
        const { x, y } = xy(p, 'MapPoints');
        const [sx, sy] = toScreen(view, x, y);
        // Screen coordinates travel as xs:int; a point that far off the image has none.
        if (!(Math.abs(sx) <= INT_MAX && Math.abs(sy) <= INT_MAX))
          throw clientFault(`MapPoints point ${i} lies too far outside the image for screen coordinates.`);
        return [sx, sy];
      });
      return { ScreenXValues: screen.map((s) => s[0]), ScreenYValues: screen.map((s) => s[1]) };
    },
  };
}
