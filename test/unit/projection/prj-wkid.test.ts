import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wkidFromPrj } from '../../../lib/projection/prj-wkid.js';

const prj = (name: string) =>
  readFileSync(new URL(`../../fixtures/projection/${name}`, import.meta.url), 'utf8');

describe('wkidFromPrj', () => {
  it('recognises the ESRI .prj of WGS 84 as 4326', () => {
    expect(wkidFromPrj(prj('wgs84.prj'))).toBe(4326);
  });

  it('recognises web mercator auxiliary sphere as 3857', () => {
    expect(wkidFromPrj(prj('web-mercator-auxiliary-sphere.prj'))).toBe(3857);
  });

  it('recognises NAD83 / UTM zone 15N from its zone number', () => {
    expect(wkidFromPrj(prj('nad83-utm-zone-15n.prj'))).toBe(26915);
  });

  it('recognises British National Grid as 27700', () => {
    expect(wkidFromPrj(prj('british-national-grid.prj'))).toBe(27700);
  });

  it('takes the top-level EPSG authority of OGC WKT, not the inner datum one', () => {
    expect(wkidFromPrj(prj('wgs84-utm-zone-32n.ogc.wkt'))).toBe(32632);
  });

  it('recognises southern UTM zones and EPSG spellings of names', () => {
    expect(wkidFromPrj('PROJCS["WGS_1984_UTM_Zone_33S",GEOGCS["GCS_WGS_1984"]]')).toBe(32733);
    expect(wkidFromPrj('PROJCS["ETRS89 / UTM zone 32N",GEOGCS["ETRS89"]]')).toBe(25832);
    expect(wkidFromPrj('GEOGCS["NAD83",DATUM["North_American_Datum_1983"]]')).toBe(4269);
  });

  it('recognises US State Plane zones in US feet as their EPSG code', () => {
    expect(wkidFromPrj(prj('nad83-stateplane-illinois-east-feet.prj'))).toBe(3435);
  });

  it.each([
    ['NAD_1983_StatePlane_Illinois_East_FIPS_1201', 26971],
    ['NAD_1983_StatePlane_California_V_FIPS_0405_Feet', 2229],
    ['NAD_1983_StatePlane_Arizona_Central_FIPS_0202_Feet_Intl', 2223],
    ['NAD_1983_StatePlane_Kentucky_FIPS_1600_Feet', 3089],
    ['NAD_1983_HARN_StatePlane_Illinois_East_FIPS_1201_Feet', 3443],
    ['NAD_1983_StatePlane_Alabama_East_FIPS_0101_Feet', 102629],
  ])('recognises the state plane name %s as %i', (name, wkid) => {
    expect(wkidFromPrj(`PROJCS["${name}",GEOGCS["GCS_North_American_1983"]]`)).toBe(wkid);
  });

  it('does not guess for a name it does not know', () => {
    expect(wkidFromPrj(prj('custom-lambert-conformal-conic.prj'))).toBeUndefined();
    expect(wkidFromPrj('PROJCS["NAD_1983_StatePlane_Atlantis_North_FIPS_9999_Feet"]')).toBeUndefined();
    expect(wkidFromPrj('PROJCS["WGS_1984_UTM_Zone_61N"]')).toBeUndefined();
    expect(wkidFromPrj('not wkt')).toBeUndefined();
  });
});
