import { describe, expect, it } from 'vitest';
import { isGeoError } from '../../../lib/errors.js';
import { outputProjection, prepareFeatureQuery } from '../../../lib/query/prepare-feature-query.js';
import { parcelsLayer } from './parcels-layer.js';

const MERCATOR = { wkid: 102100, latestWkid: 3857 };
/** Web Mercator x of a longitude: R·λ, with R the WGS84 semi-major axis. */
const mercatorX = (lon: number) => (6378137 * lon * Math.PI) / 180;
const pointLayer = { ...parcelsLayer, geometryType: 'esriGeometryPoint' as const };

describe('prepareFeatureQuery', () => {
  it('plans a query without a geometry and asks for no exact test', () => {
    const prepared = prepareFeatureQuery({ where: '1=1', returnidsonly: 'true' }, pointLayer, MERCATOR);
    expect(prepared.plan.mode).toBe('ids');
    expect(prepared.exact).toBeUndefined();
  });

  it('projects a WGS84 filter into the storage reference before testing shapes', () => {
    const envelope = JSON.stringify({ xmin: 5, ymin: -1, xmax: 15, ymax: 1 });
    const { exact } = prepareFeatureQuery({ geometry: envelope, insr: '4326' }, pointLayer, MERCATOR);
    expect(exact?.({ x: mercatorX(10), y: 0 })).toBe(true);
    expect(exact?.({ x: mercatorX(4), y: 0 })).toBe(false);
    // In the storage reference, 10 (metres) is nowhere near longitude 10.
    expect(exact?.({ x: 10, y: 0 })).toBe(false);
  });

  it('keeps a filter already in the storage reference as given', () => {
    const envelope = JSON.stringify({ xmin: 0, ymin: 0, xmax: 100, ymax: 100, spatialReference: MERCATOR });
    const { exact } = prepareFeatureQuery({ geometry: envelope }, pointLayer, MERCATOR);
    expect(exact?.({ x: 50, y: 50 })).toBe(true);
    expect(exact?.({ x: 150, y: 50 })).toBe(false);
  });

  it('refuses a bad parameter with a 400 naming it', () => {
    let error: unknown;
    try {
      prepareFeatureQuery({ geometry: '{"xmin":', insr: '4326' }, pointLayer, MERCATOR);
    } catch (e) {
      error = e;
    }
    expect(isGeoError(error) && error.code).toBe(400);
    expect(JSON.stringify(error)).toContain('geometry');
  });
});

describe('outputProjection', () => {
  it('projects shapes and extents out of Web Mercator into WGS84', () => {
    const out = outputProjection(MERCATOR, { wkid: 4326 });
    const shape = out.shape({ x: mercatorX(10), y: 0, spatialReference: MERCATOR }) as {
      x: number;
      y: number;
    };
    expect(shape.x).toBeCloseTo(10, 9);
    expect(shape).not.toHaveProperty('spatialReference');
    const [xmin, , xmax] = out.bounds([mercatorX(-10), 0, mercatorX(10), 0]) ?? [];
    expect(xmin).toBeCloseTo(-10, 9);
    expect(xmax).toBeCloseTo(10, 9);
  });

  it('leaves shapes in the storage reference untouched but for their spatialReference member', () => {
    const out = outputProjection(MERCATOR, { wkid: 3857 });
    expect(out.shape({ x: 1, y: 2, spatialReference: MERCATOR })).toEqual({ x: 1, y: 2 });
    expect(out.bounds(null)).toBeNull();
  });
});
