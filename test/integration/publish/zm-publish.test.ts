import { beforeAll, describe, expect, it } from 'vitest';
import { decodeFeatureCollection, worldGeometry } from '../../fixtures/pbf/decode-feature-collection.js';
import { call, signIn, stack } from '../support/portal-client.js';
import { featureServer, publishFile, uniqueName, waitForJob } from './publish-client.js';

// Fixtures: ogr2ogr wrote test/fixtures/publish/zm/*.gpkg and places-z.geojson from the CSV files
// beside them (commands in that folder's README); the z and m below are those CSVs' (and ogrinfo's).
const file = (name: string) => `zm/${name}`;

const query = async (token: string, url: string, params: Record<string, string>) =>
  (
    await call(`${url}/query`, {
      token,
      where: '1=1',
      outFields: 'name',
      orderByFields: 'OBJECTID',
      ...params,
    })
  ).json;

const layerJson = async (token: string, url: string) => (await call(url, { token }, { method: 'GET' })).json;

/** Publishes a fixture as a one-layer service and answers its layer 0 URL. */
async function publish(token: string, name: string, filetype: string, layerName: string): Promise<string> {
  const service = uniqueName(`zm_${name.replace(/\W/g, '_')}`);
  const { status } = await publishFile(token, file(name), filetype, {
    name: service,
    layers: [{ id: 0, name: layerName }],
    capabilities: 'Query,Create,Update,Delete,Editing',
  });
  expect(status.status).toBe('completed');
  return `${featureServer(service)}/0`;
}

describe('z and m stored and served', () => {
  let token: string;
  let pointsZ: string;
  let pointsM: string;
  let linesZM: string;
  let parcelsM: string;
  let geojsonZ: string;
  beforeAll(async () => {
    token = await signIn();
    [pointsZ, pointsM, linesZM, parcelsM, geojsonZ] = await Promise.all([
      publish(token, 'places-z.gpkg', 'geoPackage', 'places'),
      publish(token, 'places-m.gpkg', 'geoPackage', 'places'),
      publish(token, 'lines-zm.gpkg', 'geoPackage', 'lines'),
      publish(token, 'parcels-m.gpkg', 'geoPackage', 'parcels'),
      publish(token, 'places-z.geojson', 'geojson', 'places'),
    ]);
  });

  it('layer JSON says hasZ/hasM as the file declares them', async () => {
    const flags = async (url: string) => {
      const l = await layerJson(token, url);
      return [l.hasZ, l.hasM];
    };
    expect(await flags(pointsZ)).toEqual([true, false]);
    expect(await flags(pointsM)).toEqual([false, true]);
    expect(await flags(linesZM)).toEqual([true, true]);
    expect(await flags(parcelsM)).toEqual([false, true]);
    expect(await flags(geojsonZ)).toEqual([true, false]);
  });

  it('z and m are left out unless returnZ/returnM ask (the ArcGIS default)', async () => {
    const points = await query(token, pointsZ, { outSR: '4326' });
    expect(points.hasZ).toBeUndefined();
    expect(points.features.map((f: any) => [f.geometry.z, f.geometry.m])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
    const lines = await query(token, linesZM, {});
    expect(lines.hasZ).toBeUndefined();
    expect(lines.hasM).toBeUndefined();
    for (const f of lines.features)
      for (const p of f.geometry.paths) for (const v of p) expect(v).toHaveLength(2);
  });

  it('points keep their z through the projection to Web Mercator and back', async () => {
    const res = await query(token, pointsZ, { outSR: '4326', returnZ: 'true', returnM: 'true' });
    expect(res.hasZ).toBe(true);
    expect(res.hasM).toBeUndefined();
    const got = res.features.map((f: any) => [f.attributes.name, f.geometry.x, f.geometry.y, f.geometry.z]);
    const want = [
      ['Berlin', 13.405, 52.52, 34],
      ['London', -0.1276, 51.5072, 11],
    ];
    got.forEach((g: any[], i: number) => {
      expect(g[0]).toBe(want[i][0]);
      expect(g[1]).toBeCloseTo(want[i][1] as number, 9);
      expect(g[2]).toBeCloseTo(want[i][2] as number, 9);
      expect(g[3]).toBe(want[i][3]);
    });
    expect(res.features[0].geometry.m).toBeUndefined();
  });

  it('XYM points answer m, and no z, with returnZ and returnM', async () => {
    const res = await query(token, pointsM, { returnZ: 'true', returnM: 'true' });
    expect(res.hasZ).toBeUndefined();
    expect(res.hasM).toBe(true);
    expect(res.features.map((f: any) => [f.geometry.z, f.geometry.m])).toEqual([
      [undefined, 1.5],
      [undefined, 2.5],
    ]);
  });

  it('XYZM lines in UTM come back in their own reference with every z and m', async () => {
    const res = await query(token, linesZM, { outSR: '32633', returnZ: 'true', returnM: 'true' });
    expect([res.hasZ, res.hasM]).toEqual([true, true]);
    const want = [
      [
        [
          [500000, 5800000, 10, 0],
          [500100, 5800000, 12.5, 100],
          [500100, 5800200, 15, 300],
        ],
      ],
      [
        [
          [500300, 5800300, 1, 0],
          [500400, 5800400, 2, 141.42],
        ],
        [
          [500500, 5800500, 3, 200],
          [500600, 5800500, 4, 300],
        ],
      ],
    ];
    res.features.forEach((f: any, i: number) => {
      const paths = f.geometry.paths as number[][][];
      expect(paths.map((p) => p.length)).toEqual(want[i].map((p) => p.length));
      paths.forEach((p, j) => {
        p.forEach((v, k) => {
          const w = want[i][j][k];
          expect(v[0]).toBeCloseTo(w[0], 3); // through Web Mercator storage and back
          expect(v[1]).toBeCloseTo(w[1], 3);
          expect(v.slice(2)).toEqual(w.slice(2)); // z and m are never projected
        });
      });
    });
    // Only z asked: the m (fourth ordinate) is left out, z stays third.
    const onlyZ = await query(token, linesZM, { returnZ: 'true' });
    expect([onlyZ.hasZ, onlyZ.hasM]).toEqual([true, undefined]);
    expect(onlyZ.features[0].geometry.paths[0].map((v: number[]) => v[2])).toEqual([10, 12.5, 15]);
    expect(onlyZ.features[0].geometry.paths[0][0]).toHaveLength(3);
    // Only m asked: m becomes the third ordinate, as Esri JSON lays out an XYM vertex.
    const onlyM = await query(token, linesZM, { returnM: 'true' });
    expect([onlyM.hasZ, onlyM.hasM]).toEqual([undefined, true]);
    expect(onlyM.features[1].geometry.paths[1].map((v: number[]) => v.slice(2))).toEqual([[200], [300]]);
  });

  it('an XYM polygon keeps its ring measures', async () => {
    const res = await query(token, parcelsM, { outSR: '32633', returnM: 'true' });
    expect(res.hasM).toBe(true);
    const ring = res.features[0].geometry.rings[0] as number[][];
    // Esri rings run clockwise: GDAL's counter-clockwise ring comes back reversed, each m with its vertex.
    const byVertex = new Map(ring.map((v) => [`${Math.round(v[0])},${Math.round(v[1])}`, v[2]]));
    expect(Object.fromEntries(byVertex)).toEqual({
      '500000,5800000': 1,
      '500100,5800000': 2,
      '500100,5800100': 3,
      '500000,5800100': 4,
    });
    expect(ring.every((v) => v.length === 3)).toBe(true);
  });

  it('GeoJSON: z from the file, answered as the third coordinate with returnZ; m never', async () => {
    const json = await query(token, geojsonZ, { outSR: '4326', returnZ: 'true' });
    expect(json.features.map((f: any) => f.geometry.z)).toEqual([34, 11]);
    const geo = await query(token, linesZM, { f: 'geojson', returnZ: 'true', returnM: 'true' });
    // One path: a LineString of [x, y, z] positions (the m is not a GeoJSON coordinate).
    expect(geo.features[0].geometry.type).toBe('LineString');
    expect(geo.features[0].geometry.coordinates.map((c: number[]) => c[2])).toEqual([10, 12.5, 15]);
    expect(geo.features[0].geometry.coordinates.every((c: number[]) => c.length === 3)).toBe(true);
    const flat = await query(token, pointsZ, { f: 'geojson' });
    expect(flat.features.map((f: any) => f.geometry.coordinates.length)).toEqual([2, 2]);
  });

  it('a file geodatabase keeps z and m through its conversion to a GeoPackage (GDAL in WebAssembly)', async () => {
    const url = await publish(token, 'lines.gdb.zip', 'fileGeodatabase', 'lines');
    const l = await layerJson(token, url);
    expect([l.hasZ, l.hasM]).toEqual([true, true]);
    const res = await query(token, url, { outSR: '32633', returnZ: 'true', returnM: 'true' });
    const zm = res.features.map((f: any) =>
      f.geometry.paths.map((p: number[][]) => p.map((v) => v.slice(2))),
    );
    // ogrinfo lines.gdb: the FileGDB m grid stores 141.42 as 141.419999999998.
    expect(zm[0]).toEqual([
      [
        [10, 0],
        [12.5, 100],
        [15, 300],
      ],
    ]);
    expect(zm[1][0][0]).toEqual([1, 0]);
    expect(zm[1][0][1][0]).toBe(2);
    expect(zm[1][0][1][1]).toBeCloseTo(141.42, 9);
    expect(zm[1][1]).toEqual([
      [3, 200],
      [4, 300],
    ]);
  });

  it('a PolylineZM shapefile keeps z (shpjs reads no m)', async () => {
    const url = await publish(token, 'lines-shp.zip', 'shapefile', 'lines');
    const l = await layerJson(token, url);
    expect([l.hasZ, l.hasM]).toEqual([true, false]);
    const res = await query(token, url, { outSR: '32633', returnZ: 'true', returnM: 'true' });
    expect(res.hasM).toBeUndefined();
    expect(res.features[0].geometry.paths[0].map((v: number[]) => v[2])).toEqual([10, 12.5, 15]);
    expect(res.features[0].geometry.paths[0][1][0]).toBeCloseTo(500100, 3);
    expect(res.features[1].geometry.paths[1].map((v: number[]) => v[2])).toEqual([3, 4]);
  });

  it('a feature collection keeps the z and m its layer definition declares (JSON in text)', async () => {
    const owner = stack().admin.username;
    const name = uniqueName('zm_collection');
    const collection = {
      layers: [
        {
          layerDefinition: {
            name: 'survey',
            geometryType: 'esriGeometryPolyline',
            hasZ: true,
            hasM: true,
            fields: [{ name: 'label', type: 'esriFieldTypeString', alias: 'label', length: 20 }],
          },
          featureSet: {
            geometryType: 'esriGeometryPolyline',
            spatialReference: { wkid: 3857 },
            features: [
              {
                attributes: { label: 'a' },
                geometry: {
                  paths: [
                    [
                      [100, 200, 1.5, 10],
                      [300, 400, 2.5, 20],
                    ],
                  ],
                },
              },
            ],
          },
        },
      ],
    };
    const published = await call(`/sharing/rest/content/users/${owner}/publish`, {
      token,
      filetype: 'feature',
      text: JSON.stringify(collection),
      publishParameters: JSON.stringify({ name, layers: [{ id: 0, name: 'survey' }] }),
    });
    const service = published.json.services[0];
    expect((await waitForJob(token, owner, service.serviceItemId, service.jobId)).status).toBe('completed');
    const url = `${featureServer(name)}/0`;
    const l = await layerJson(token, url);
    expect([l.hasZ, l.hasM]).toEqual([true, true]);
    const res = await query(token, url, { outFields: 'label', returnZ: 'true', returnM: 'true' });
    expect(res.features[0].geometry.paths).toEqual([
      [
        [100, 200, 1.5, 10],
        [300, 400, 2.5, 20],
      ],
    ]);
  });

  it('f=pbf carries z and m cells with their grids in the transform (decoded by protobufjs)', async () => {
    const pbf = async (url: string, params: Record<string, string>) => {
      const body = new URLSearchParams({
        token,
        f: 'pbf',
        where: '1=1',
        orderByFields: 'OBJECTID',
        ...params,
      });
      const res = await fetch(`${stack().baseUrl}${url}/query`, { method: 'POST', body });
      expect(res.headers.get('content-type')).toBe('application/x-protobuf');
      return decodeFeatureCollection(new Uint8Array(await res.arrayBuffer())).queryResult.featureResult!;
    };
    const lines = await pbf(linesZM, { outSR: '32633', returnZ: 'true', returnM: 'true' });
    expect([lines.hasZ, lines.hasM]).toEqual([true, true]);
    const t = lines.transform!;
    const second = worldGeometry(lines.geometryType!, lines.features![1].geometry!, t, lines) as {
      paths: number[][][];
    };
    const want = [
      [
        [500300, 5800300, 1, 0],
        [500400, 5800400, 2, 141.42],
      ],
      [
        [500500, 5800500, 3, 200],
        [500600, 5800500, 4, 300],
      ],
    ];
    second.paths.forEach((p, j) => {
      p.forEach((v, k) => {
        for (let d = 0; d < 4; d++) expect(v[d]).toBeCloseTo(want[j][k][d], 6);
      });
    });
    // Without returnZ/returnM the cells are x/y only and the flags absent.
    const flat = await pbf(linesZM, {});
    expect([flat.hasZ ?? false, flat.hasM ?? false]).toEqual([false, false]);
    expect(flat.features![0].geometry!.coords).toHaveLength(3 * 2);
    // XYM points: one extra cell, the m.
    const points = await pbf(pointsM, { returnZ: 'true', returnM: 'true' });
    expect([points.hasZ ?? false, points.hasM]).toEqual([false, true]);
    const ms = points.features!.map(
      (f) => (worldGeometry(points.geometryType!, f.geometry!, points.transform!, points) as { m: number }).m,
    );
    expect(ms[0]).toBeCloseTo(1.5, 6);
    expect(ms[1]).toBeCloseTo(2.5, 6);
  });

  it('a quantized JSON answer refuses returnZ/returnM by name on a layer with them', async () => {
    const quantized = await query(token, linesZM, {
      returnM: 'true',
      quantizationParameters: JSON.stringify({ mode: 'view', tolerance: 1 }),
    });
    expect(quantized.error.code).toBe(400);
    expect(JSON.stringify(quantized.error.details)).toMatch(/returnM/);
  });

  it('applyEdits keeps z and m on a layer that has them, and drops none it was given', async () => {
    const edits = await call(`${linesZM}/applyEdits`, {
      token,
      adds: JSON.stringify([
        {
          attributes: { name: 'new' },
          geometry: {
            hasZ: true,
            hasM: true,
            paths: [
              [
                [500700, 5800700, 7, 70],
                [500800, 5800700, 8, 80],
              ],
            ],
            spatialReference: { wkid: 32633 },
          },
        },
        {
          attributes: { name: 'flat' },
          geometry: {
            paths: [
              [
                [500900, 5800900],
                [501000, 5800900],
              ],
            ],
            spatialReference: { wkid: 32633 },
          },
        },
      ]),
    });
    expect(edits.json.addResults, JSON.stringify(edits.json)).toHaveLength(2);
    const ids = edits.json.addResults.map((r: any) => {
      expect(r.success).toBe(true);
      return r.objectId;
    });
    const res = await query(token, linesZM, {
      objectIds: ids.join(','),
      outSR: '32633',
      returnZ: 'true',
      returnM: 'true',
    });
    const added = res.features.map((f: any) => f.geometry.paths[0].map((v: number[]) => v.slice(2)));
    // The flat one gets z 0 and no measure (NaN, null in JSON), as the layer has both.
    expect(added).toEqual([
      [
        [7, 70],
        [8, 80],
      ],
      [
        [0, null],
        [0, null],
      ],
    ]);
    const point = await call(`${pointsZ}/applyEdits`, {
      token,
      adds: JSON.stringify([
        {
          attributes: { name: 'Paris' },
          geometry: { x: 2.3522, y: 48.8566, z: 35, spatialReference: { wkid: 4326 } },
        },
      ]),
    });
    const id = point.json.addResults[0].objectId;
    const back = await query(token, pointsZ, { objectIds: String(id), returnZ: 'true', outSR: '4326' });
    expect(back.features[0].geometry.z).toBe(35);
  });
});
