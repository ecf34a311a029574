import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GeoError } from '../../../lib/errors.js';
import {
  normalizeSpatialReference,
  resolveSpatialReference,
  sameSpatialReference,
  spatialReferenceForWkid,
  wkidOf,
} from '../../../lib/projection/spatial-reference.js';
import { knownWkidCount, proj4ForWkid } from '../../../lib/projection/wkid-table.js';

const prj = (name: string) =>
  readFileSync(new URL(`../../fixtures/projection/${name}`, import.meta.url), 'utf8');

describe('the wkid table', () => {
  it('knows thousands of EPSG and ESRI codes', () => {
    expect(knownWkidCount()).toBeGreaterThan(6000);
  });

  it.each([
    [4326, '+proj=longlat'],
    [4269, '+proj=longlat'],
    [3857, '+proj=merc'],
    [102100, '+proj=merc'],
    [102113, '+proj=merc'],
    [900913, '+proj=merc'],
    [32615, '+proj=utm +zone=15 +datum=WGS84'],
    [32733, '+proj=utm +zone=33 +south'],
    [26915, '+proj=utm +zone=15 +ellps=GRS80'],
    [3035, '+proj=laea +lat_0=52 +lon_0=10'],
    [27700, '+proj=tmerc +lat_0=49 +lon_0=-2'],
    [2154, '+proj=lcc +lat_0=46.5 +lon_0=3'],
    [102003, '+proj=aea'],
  ])('defines wkid %i', (wkid, start) => {
    expect(proj4ForWkid(wkid)).toContain(start);
  });

  it('gives British National Grid a datum shift proj4 can apply without grid files', () => {
    expect(proj4ForWkid(27700)).toContain('+towgs84=446.448,-125.157,542.06');
    expect(proj4ForWkid(27700)).not.toContain('nadgrids');
  });
});

describe('resolveSpatialReference', () => {
  it('folds web mercator aliases onto 3857', () => {
    expect(resolveSpatialReference({ wkid: 102100 }).wkid).toBe(3857);
    expect(resolveSpatialReference({ wkid: 102100, latestWkid: 3857 }).wkid).toBe(3857);
  });

  it('falls back to wkid when latestWkid is unknown', () => {
    expect(resolveSpatialReference({ wkid: 4326, latestWkid: 999999 }).wkid).toBe(4326);
  });

  it('prefers a known wkid over WKT sent beside it', () => {
    const r = resolveSpatialReference({ wkid: 4326, wkt: prj('custom-lambert-conformal-conic.prj') });
    expect(r.wkid).toBe(4326);
  });

  it('names the known one of wkid and latestWkid', () => {
    expect(wkidOf({ wkid: 4326, latestWkid: 999999 })).toBe(4326);
    expect(wkidOf({ wkid: 102100, latestWkid: 3857 })).toBe(3857);
    expect(wkidOf({ wkt: 'GEOGCS["x"]' })).toBeNull();
  });

  it('tells geographic from projected references', () => {
    expect(resolveSpatialReference({ wkid: 4326 }).geographic).toBe(true);
    expect(resolveSpatialReference({ wkid: 32615 }).geographic).toBe(false);
    expect(resolveSpatialReference({ wkt: prj('wgs84.prj') }).geographic).toBe(true);
  });

  it('resolves a recognised .prj to its wkid and table definition', () => {
    const r = resolveSpatialReference({ wkt: prj('nad83-utm-zone-15n.prj') });
    expect(r.wkid).toBe(26915);
    expect(r.definition).toBe(proj4ForWkid(26915));
  });

  it('keeps an unrecognised but valid WKT as the definition', () => {
    const wkt = prj('custom-lambert-conformal-conic.prj');
    expect(resolveSpatialReference({ wkt })).toEqual({ wkid: null, definition: wkt, geographic: false });
  });

  it('rejects an unknown wkid with a 400', () => {
    const attempt = () => resolveSpatialReference({ wkid: 123456789 });
    expect(attempt).toThrow(GeoError);
    expect(attempt).toThrow('Invalid spatial reference.');
    try {
      attempt();
    } catch (e) {
      expect((e as GeoError).code).toBe(400);
      expect((e as GeoError).details[0]).toContain('123456789');
    }
  });

  it('rejects unparseable WKT with a 400', () => {
    expect(() => resolveSpatialReference({ wkt: 'PROJCS["broken' })).toThrow(GeoError);
  });

  it('rejects a spatial reference with neither wkid nor wkt', () => {
    expect(() => resolveSpatialReference({})).toThrow(GeoError);
  });
});

describe('sameSpatialReference', () => {
  it('sees 102100 and 3857 as the same', () => {
    expect(sameSpatialReference({ wkid: 102100 }, { wkid: 3857 })).toBe(true);
    expect(sameSpatialReference({ wkid: 102100, latestWkid: 3857 }, { wkid: 900913 })).toBe(true);
  });

  it('sees a .prj as the same as the wkid it stands for', () => {
    expect(sameSpatialReference({ wkt: prj('wgs84.prj') }, { wkid: 4326 })).toBe(true);
    expect(sameSpatialReference({ wkt: prj('wgs84.prj') }, { wkid: 3857 })).toBe(false);
  });

  it('compares two unrecognised WKT texts ignoring whitespace', () => {
    const wkt = prj('custom-lambert-conformal-conic.prj');
    expect(sameSpatialReference({ wkt }, { wkt: wkt.replace(/,/g, ', ') })).toBe(true);
  });
});

describe('what a layer reports', () => {
  it('reports web mercator the Esri way', () => {
    expect(spatialReferenceForWkid(3857)).toEqual({ wkid: 102100, latestWkid: 3857 });
    expect(spatialReferenceForWkid(4326)).toEqual({ wkid: 4326, latestWkid: 4326 });
  });

  it('turns a recognised .prj into a wkid and keeps an unknown one as WKT', () => {
    expect(normalizeSpatialReference({ wkt: prj('british-national-grid.prj') })).toEqual({
      wkid: 27700,
      latestWkid: 27700,
    });
    const wkt = prj('custom-lambert-conformal-conic.prj');
    expect(normalizeSpatialReference({ wkt })).toEqual({ wkt });
  });
});
