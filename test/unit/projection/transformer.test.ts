import { readFileSync } from 'node:fs';
import proj4 from 'proj4';
import { describe, expect, it } from 'vitest';
import type { EsriPolygon } from '../../../lib/geometry/types.js';
import { createTransformer } from '../../../lib/projection/transformer.js';
import { proj4ForWkid } from '../../../lib/projection/wkid-table.js';

const prj = (name: string) =>
  readFileSync(new URL(`../../fixtures/projection/${name}`, import.meta.url), 'utf8');
const CHICAGO = [-87.6298, 41.8781] as const;

describe('createTransformer', () => {
  it('projects Chicago from 4326 to 3857 to within 0.01 m of proj4', () => {
    const [x, y] = createTransformer({ wkid: 4326 }, { wkid: 3857 }).project(...CHICAGO);
    const [ex, ey] = proj4('EPSG:4326', 'EPSG:3857', [...CHICAGO]);
    expect(Math.abs(x - ex)).toBeLessThan(0.01);
    expect(Math.abs(y - ey)).toBeLessThan(0.01);
    expect(x).toBeCloseTo(-9754904.71, 1);
    expect(y).toBeCloseTo(5142736.87, 1);
  });

  it('projects back from 102100 to 4326', () => {
    const [lon, lat] = createTransformer({ wkid: 102100 }, { wkid: 4326 }).project(
      -9754904.714316,
      5142736.869193,
    );
    expect(lon).toBeCloseTo(CHICAGO[0], 9);
    expect(lat).toBeCloseTo(CHICAGO[1], 9);
  });

  it('clamps latitudes beyond the mercator limit instead of returning Infinity', () => {
    const t = createTransformer({ wkid: 4326 }, { wkid: 3857 });
    expect(t.project(0, 90)[1]).toBeCloseTo(20037508.34, 1);
    expect(t.project(0, -89)[1]).toBeCloseTo(-20037508.34, 1);
  });

  it('projects Minneapolis into NAD83 / UTM zone 15N', () => {
    const [x, y] = createTransformer({ wkid: 4326 }, { wkid: 26915 }).project(-93.265, 44.9778);
    expect(x).toBeCloseTo(479105.88, 1);
    expect(y).toBeCloseTo(4980518.42, 1);
  });

  it('projects with a .prj exactly as with the wkid it stands for', () => {
    const viaPrj = createTransformer({ wkt: prj('nad83-utm-zone-15n.prj') }, { wkid: 4326 }).project(
      479105.88,
      4980518.42,
    );
    const viaWkid = createTransformer({ wkid: 26915 }, { wkid: 4326 }).project(479105.88, 4980518.42);
    expect(viaPrj).toEqual(viaWkid);
    expect(viaPrj[0]).toBeCloseTo(-93.265, 6);
  });

  it('projects Big Ben into British National Grid within metres of the Ordnance Survey figure', () => {
    const [e, n] = createTransformer({ wkid: 4326 }, { wkid: 27700 }).project(-0.124625, 51.500729);
    // Published grid reference of the Elizabeth Tower: about 530268 E, 179640 N.
    expect(Math.abs(e - 530268)).toBeLessThan(5);
    expect(Math.abs(n - 179640)).toBeLessThan(5);
  });

  it('projects with a state plane .prj in US feet exactly as its WKT says', () => {
    const wkt = prj('nad83-stateplane-illinois-east-feet.prj');
    const [x, y] = createTransformer({ wkid: 4326 }, { wkt }).project(...CHICAGO);
    const [ex, ey] = proj4('EPSG:4326', wkt, [...CHICAGO]);
    expect(Math.abs(x - ex)).toBeLessThan(0.01);
    expect(Math.abs(y - ey)).toBeLessThan(0.01);
    expect(x).toBeCloseTo(1175844.4, 0); // feet east of the Illinois East false origin
  });

  it('projects with an unrecognised .prj through proj4 reading the WKT', () => {
    const wkt = prj('custom-lambert-conformal-conic.prj');
    const [x, y] = createTransformer({ wkid: 4326 }, { wkt }).project(...CHICAGO);
    const [ex, ey] = proj4('EPSG:4326', wkt, [...CHICAGO]);
    expect([x, y]).toEqual([ex, ey]);
  });

  it('projects between two projected references through proj4', () => {
    const t = createTransformer({ wkid: 32632 }, { wkid: 3035 });
    const [ex, ey] = proj4(proj4ForWkid(32632)!, proj4ForWkid(3035)!, [514853.5, 5034536.8]);
    const [x, y] = t.project(514853.5, 5034536.8);
    expect(x).toBeCloseTo(ex, 6);
    expect(y).toBeCloseTo(ey, 6);
  });

  it('is the identity between aliases of one reference', () => {
    const t = createTransformer({ wkid: 102100 }, { wkid: 3857, latestWkid: 3857 });
    expect(t.identity).toBe(true);
    expect(t.project(1.5, 2.5)).toEqual([1.5, 2.5]);
  });

  it('projects a whole polygon and tags it with the target spatial reference', () => {
    const square: EsriPolygon = {
      rings: [
        [
          [0, 0],
          [0, 1],
          [1, 1],
          [1, 0],
          [0, 0],
        ],
      ],
      spatialReference: { wkid: 4326 },
    };
    const out = createTransformer({ wkid: 4326 }, { wkid: 3857 }).projectGeometry(square);
    expect(out.spatialReference).toEqual({ wkid: 102100, latestWkid: 3857 });
    expect(out.rings[0][2][0]).toBeCloseTo(111319.49, 1);
    expect(out.rings[0][2][1]).toBeCloseTo(111325.14, 1);
    expect(square.rings[0][2]).toEqual([1, 1]);
  });

  it('projects an envelope to the bounds of its projected edges', () => {
    const env = createTransformer({ wkid: 4326 }, { wkid: 3857 }).projectGeometry({
      xmin: -180,
      ymin: -85.0511287798066,
      xmax: 180,
      ymax: 85.0511287798066,
    });
    expect(env.xmin).toBeCloseTo(-20037508.34, 1);
    expect(env.ymax).toBeCloseTo(20037508.34, 1);
  });
});
