/**
 * Features without a geometry in files that have geometries are published with their attributes and no
 * geometry, as GDAL keeps them: the same parcels as GeoJSON (a `geometry: null` and an empty polygon), and
 * as the GeoPackage and zipped shapefile GDAL's ogr2ogr writes from that file (a NULL blob, a null shape).
 * A feature whose geometry is of another kind than the layer's is still rejected.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, uniqueName, upload, waitForJob } from './publish-client.js';

const square = (x: number, y: number, size: number) => [
  [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ],
];
const parcels = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'north', area: 4 },
      geometry: { type: 'Polygon', coordinates: square(8, 47, 2) },
    },
    { type: 'Feature', properties: { name: 'unsurveyed', area: 7 }, geometry: null },
    {
      type: 'Feature',
      properties: { name: 'south', area: 1 },
      geometry: { type: 'Polygon', coordinates: square(9, 45, 1) },
    },
    {
      type: 'Feature',
      properties: { name: 'emptied', area: 3 },
      geometry: { type: 'Polygon', coordinates: [] },
    },
  ],
};
// The located parcels' extent, from the coordinates above.
const EXTENT = { xmin: 8, ymin: 45, xmax: 10, ymax: 49 };
// In file order: the parcels and whether each has a geometry once published.
const EXPECTED = [
  ['north', 4, true],
  ['unsurveyed', 7, false],
  ['south', 1, true],
  ['emptied', 3, false],
];

describe('publishing features without a geometry', () => {
  const dir = mkdtempSync(join(tmpdir(), 'null-geometry-'));
  let token: string;
  const files: Record<string, { path: string; filetype: string }> = {};

  beforeAll(async () => {
    token = await signIn();
    const geojson = join(dir, 'parcels.geojson');
    writeFileSync(geojson, JSON.stringify(parcels));
    files.GeoJSON = { path: geojson, filetype: 'geojson' };
    const gpkg = join(dir, 'parcels.gpkg');
    execFileSync('ogr2ogr', ['-f', 'GPKG', gpkg, geojson, '-nln', 'parcels']);
    files.GeoPackage = { path: gpkg, filetype: 'geoPackage' };
    const shp = join(dir, 'shp');
    // A directory as the data source: GDAL makes it and writes parcels.shp, .shx, .dbf and .prj into it.
    execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', shp, geojson, '-nln', 'parcels']);
    const zip = join(dir, 'parcels.zip');
    writeFileSync(
      zip,
      zipSync(
        Object.fromEntries(readdirSync(shp).map((f) => [f, new Uint8Array(readFileSync(join(shp, f)))])),
      ),
    );
    files.shapefile = { path: zip, filetype: 'shapefile' };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const format of ['GeoJSON', 'GeoPackage', 'shapefile']) {
    it(`keeps them from a ${format} file, with their attributes, out of the extent`, async () => {
      const { path, filetype } = files[format];
      const name = uniqueName('parcels');
      const owner = stack().admin.username;
      const res = await upload(
        `/sharing/rest/content/users/${owner}/publish`,
        { token, filetype, publishParameters: JSON.stringify({ name }) },
        { name: path.slice(path.lastIndexOf('/') + 1), path },
      );
      const service = res.services?.[0];
      expect(service, JSON.stringify(res)).toBeTruthy();
      const status = await waitForJob(token, owner, service.serviceItemId, service.jobId);
      expect(status).toMatchObject({ status: 'completed', featureCount: 4, rowsRejected: 0 });
      const layer = `${featureServer(name)}/0`;
      const rows = (
        await call(`${layer}/query`, { token, where: '1=1', outFields: 'name,area', outSR: '4326' })
      ).json.features as { attributes: Record<string, unknown>; geometry: unknown }[];
      const byName = new Map(rows.map((f) => [f.attributes.name, f]));
      expect(
        EXPECTED.map(([n]) => {
          const f = byName.get(n);
          return [n, f?.attributes.area, f ? f.geometry !== null : undefined];
        }),
      ).toEqual(EXPECTED);
      const extent = (
        await call(`${layer}/query`, { token, where: '1=1', returnExtentOnly: 'true', outSR: '4326' })
      ).json.extent;
      for (const k of ['xmin', 'ymin', 'xmax', 'ymax'] as const) expect(extent[k]).toBeCloseTo(EXTENT[k], 6);
      // A spatial filter over the whole world finds the located ones only.
      const inWorld = (
        await call(`${layer}/query`, {
          token,
          geometry: '-180,-85,180,85',
          geometryType: 'esriGeometryEnvelope',
          inSR: '4326',
          returnCountOnly: 'true',
        })
      ).json.count;
      expect(inWorld).toBe(2);
    });
  }

  it('still rejects a geometry of another kind than the layer', async () => {
    const mixed = join(dir, 'mixed.geojson');
    writeFileSync(
      mixed,
      JSON.stringify({
        ...parcels,
        features: [
          ...parcels.features,
          {
            type: 'Feature',
            properties: { name: 'a well', area: 0 },
            geometry: { type: 'Point', coordinates: [8.5, 47.5] },
          },
        ],
      }),
    );
    const owner = stack().admin.username;
    const res = await upload(
      `/sharing/rest/content/users/${owner}/publish`,
      { token, filetype: 'geojson', publishParameters: JSON.stringify({ name: uniqueName('mixed') }) },
      { name: 'mixed.geojson', path: mixed },
    );
    const status = await waitForJob(token, owner, res.services[0].serviceItemId, res.services[0].jobId);
    expect(status).toMatchObject({ status: 'completed', featureCount: 4, rowsRejected: 1 });
  });
});
