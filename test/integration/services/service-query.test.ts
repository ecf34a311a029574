import { beforeAll, describe, expect, it } from 'vitest';
import { featureServer, fixture, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { call, signIn } from '../support/portal-client.js';

// towns.gpkg (test/fixtures/publish/sqlite, made by ogr2ogr from the CSVs there): layer 0 places
// (Berlin 3,664,088, London null, Paris 2,102,650 people, EPSG:4326), 1 roads, 2 parcels, table 3
// inspections (scores 4.5, 3.25, 5). The expected values below are read off those CSVs.
describe('FeatureServer/query across layers', () => {
  let token: string;
  let path: string;
  const query = async (params: Record<string, string>) =>
    (await call(`${path}/query`, { token, ...params }, { method: 'GET' })).json;

  beforeAll(async () => {
    token = await signIn();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'GeoPackage' },
      { name: 'towns.gpkg', path: fixture('sqlite/towns.gpkg') },
    );
    const name = uniqueName('svcquery');
    const { status } = await publishFile(token, 'sqlite/towns.gpkg', 'geoPackage', {
      ...analyzed.publishParameters,
      name,
    });
    expect(status.status).toBe('completed');
    path = featureServer(name);
  }, 120_000);

  it('answers the simple layerDefs form with each layer its own features', async () => {
    const res = await query({
      layerDefs: "0:population > 3000000;3:score >= 4.5 AND note <> 'x;y'",
      outSR: '4326',
      returnGeometry: 'true',
    });
    expect(res.layers.map((l: any) => l.id)).toEqual([0, 3]);
    const [places, inspections] = res.layers;
    expect(places.features.map((f: any) => f.attributes.name)).toEqual(['Berlin']);
    expect(places.features[0].geometry.x).toBeCloseTo(13.405, 6);
    expect(places.features[0].geometry.y).toBeCloseTo(52.52, 6);
    expect(places.geometryType).toBe('esriGeometryPoint');
    expect(inspections.features.map((f: any) => [f.attributes.score, f.attributes.note])).toEqual([
      [4.5, 'roof checked'],
      [5, 'fence repaired'],
    ]);
    expect(inspections.features[0].geometry).toBeUndefined();
  });

  it('reads layerDefs as a JSON array with outFields, and counts per layer', async () => {
    const layerDefs = JSON.stringify([
      { layerId: 0, where: 'population IS NOT NULL', outFields: 'name' },
      { layerId: 1, where: 'lanes > 2' },
    ]);
    const counts = await query({ layerDefs, returnCountOnly: 'true' });
    expect(counts).toEqual({
      layers: [
        { id: 0, count: 2 },
        { id: 1, count: 1 },
      ],
    });
    const rows = await query({ layerDefs, returnGeometry: 'false' });
    // The object id comes with the fields asked for, as in a layer query.
    expect(rows.layers[0].features.map((f: any) => Object.keys(f.attributes).sort())).toEqual([
      ['OBJECTID', 'name'],
      ['OBJECTID', 'name'],
    ]);
    expect(rows.layers[1].features.map((f: any) => f.attributes.name)).toEqual(['Ring road']);
  });

  it('reads layerDefs as a JSON object of where clauses', async () => {
    const res = await query({ layerDefs: '{"0":"name = \'Paris\'","3":"1=1"}', returnIdsOnly: 'true' });
    expect(res).toEqual({
      layers: [
        { id: 0, objectIdFieldName: 'OBJECTID', objectIds: [3] },
        { id: 3, objectIdFieldName: 'OBJECTID', objectIds: [1, 2, 3] },
      ],
    });
  });

  it('applies a geometry filter alone to every layer that has geometry', async () => {
    // An envelope around Berlin only: London and Paris are west of 13°E, the parcels (UTM 33N
    // easting 500,000 m) lie on 15°E and the roads near 0°, 0°.
    const res = await query({
      geometry: '13,52,14,53',
      geometryType: 'esriGeometryEnvelope',
      inSR: '4326',
      returnIdsOnly: 'true',
    });
    expect(res).toEqual({
      layers: [
        { id: 0, objectIdFieldName: 'OBJECTID', objectIds: [1] },
        { id: 1, objectIdFieldName: 'OBJECTID', objectIds: [] },
        { id: 2, objectIdFieldName: 'OBJECTID', objectIds: [] },
      ],
    });
  });

  it('refuses a missing or bad layerDefs, an unknown layer and a parameter it does not apply', async () => {
    expect((await query({})).error.details[0]).toMatch(/layerDefs/);
    expect((await query({ layerDefs: '0 population > 1' })).error.details[0]).toMatch(/layerDefs/);
    expect((await query({ layerDefs: '[{"layerId":0,"orderBy":"x"}]' })).error.details[0]).toMatch(/orderBy/);
    expect((await query({ layerDefs: '9:1=1' })).error.details[0]).toBe('Layer 9 does not exist.');
    expect((await query({ layerDefs: '0:1=1', resultRecordCount: '1' })).error.details[0]).toMatch(
      /resultrecordcount/,
    );
    expect((await query({ layerDefs: '0:nosuchfield = 1' })).error.code).toBe(400);
  });
});
