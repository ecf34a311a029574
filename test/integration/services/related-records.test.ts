import { queryRelated } from '@esri/arcgis-rest-feature-service';
import { ArcGISIdentityManager } from '@esri/arcgis-rest-request';
import { beforeAll, describe, expect, it } from 'vitest';
import { edit } from '../editing/edit-client.js';
import { featureServer, fixture, publishFile, uniqueName, upload } from '../publish/publish-client.js';
import { call, signIn, stack } from '../support/portal-client.js';

// towns.gpkg (test/fixtures/publish/sqlite): layer 2 parcels (OBJECTID 1 Meyer, 2 Schulz), table 3
// inspections (parcel, note, score): 1 → (1, 'roof checked', 4.5), 2 → (2, null, 3.25),
// 3 → (1, 'fence repaired', 5). Layer 0 places: OBJECTID 1 Berlin rank 1, 2 London rank 2, 3 Paris rank 3.
const PARCEL_SIDE = {
  id: 0,
  name: 'parcel_inspections',
  relatedTableId: 3,
  cardinality: 'esriRelCardinalityOneToMany',
  role: 'esriRelRoleOrigin',
  keyField: 'OBJECTID',
  composite: false,
};
const INSPECTION_SIDE = {
  ...PARCEL_SIDE,
  relatedTableId: 2,
  role: 'esriRelRoleDestination',
  keyField: 'parcel',
};

describe('relationships and queryRelatedRecords', () => {
  let token: string;
  let path: string;
  let admin: string;
  let authentication: ArcGISIdentityManager;
  const related = async (layer: number, params: Record<string, string>) =>
    (await call(`${path}/${layer}/queryRelatedRecords`, { token, ...params }, { method: 'GET' })).json;

  beforeAll(async () => {
    token = await signIn();
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'GeoPackage' },
      { name: 'towns.gpkg', path: fixture('sqlite/towns.gpkg') },
    );
    const name = uniqueName('related');
    const layers = analyzed.publishParameters.layers.map((l: any) =>
      l.id === 2
        ? { ...l, relationships: [PARCEL_SIDE] }
        : l.id === 3
          ? { ...l, relationships: [INSPECTION_SIDE] }
          : l,
    );
    const { status } = await publishFile(token, 'sqlite/towns.gpkg', 'geoPackage', {
      ...analyzed.publishParameters,
      layers,
      name,
    });
    expect(status.status).toBe('completed');
    path = featureServer(name);
    admin = `/rest/admin/services/Hosted/${name}/FeatureServer`;
    authentication = await ArcGISIdentityManager.signIn({
      username: stack().admin.username,
      password: stack().admin.password,
      portal: `${stack().baseUrl}/sharing/rest`,
    });
  }, 120_000);

  it('publishing keeps the relationships the publish parameters declare, in the layer JSON', async () => {
    const parcels = (await call(`${path}/2`, { token }, { method: 'GET' })).json;
    const inspections = (await call(`${path}/3`, { token }, { method: 'GET' })).json;
    expect(parcels.relationships).toEqual([PARCEL_SIDE]);
    expect(inspections.relationships).toEqual([INSPECTION_SIDE]);
  });

  it('refuses a publish that declares one side of a relationship only', async () => {
    const analyzed = await upload(
      '/sharing/rest/content/features/analyze',
      { token, filetype: 'GeoPackage' },
      { name: 'towns.gpkg', path: fixture('sqlite/towns.gpkg') },
    );
    const layers = analyzed.publishParameters.layers.map((l: any) =>
      l.id === 2 ? { ...l, relationships: [PARCEL_SIDE] } : l,
    );
    const res = await upload(
      `/sharing/rest/content/users/${stack().admin.username}/publish`,
      {
        token,
        filetype: 'geoPackage',
        publishParameters: JSON.stringify({
          ...analyzed.publishParameters,
          layers,
          name: uniqueName('onesided'),
        }),
      },
      { name: 'towns.gpkg', path: fixture('sqlite/towns.gpkg') },
    );
    expect(res.error.details[0]).toBe('layer 2: layer 3 does not list relationship 0 back to layer 2');
  });

  it('queryRelated of @esri/arcgis-rest-feature-service groups inspections by parcel', async () => {
    const res = await queryRelated({
      url: `${stack().baseUrl}${path}/2`,
      authentication,
      objectIds: [1, 2],
      relationshipId: 0,
      outFields: ['note', 'score'],
    });
    expect(res.relatedRecordGroups).toEqual([
      {
        objectId: 1,
        relatedRecords: [
          { attributes: { OBJECTID: 1, note: 'roof checked', score: 4.5 } },
          { attributes: { OBJECTID: 3, note: 'fence repaired', score: 5 } },
        ],
      },
      { objectId: 2, relatedRecords: [{ attributes: { OBJECTID: 2, note: null, score: 3.25 } }] },
    ]);
    expect((res as any).fields.map((f: any) => f.name)).toEqual(['OBJECTID', 'note', 'score']);
  });

  it('goes from the destination to the origin with geometry, a definitionExpression and counts', async () => {
    const back = await related(3, {
      objectIds: '1,2,3',
      relationshipId: '0',
      outFields: 'owner',
      outSR: '32633',
      orderByFields: 'owner',
    });
    expect(back.geometryType).toBe('esriGeometryPolygon');
    expect(
      back.relatedRecordGroups.map((g: any) => [g.objectId, g.relatedRecords[0].attributes.owner]),
    ).toEqual([
      [1, 'Meyer'],
      [2, 'Schulz'],
      [3, 'Meyer'],
    ]);
    // The second parcel's outer ring: (500200 5800000, 500300 5800000, 500300 5800050), closed.
    const ring = back.relatedRecordGroups[1].relatedRecords[0].geometry.rings[0];
    expect(ring.map((p: number[]) => p.map((v) => Math.round(v)))).toContainEqual([500300, 5800050]);
    const counts = await related(2, {
      objectIds: '1,2',
      relationshipId: '0',
      definitionExpression: 'score > 4',
      returnCountOnly: 'true',
    });
    expect(counts).toEqual({ relatedRecordGroups: [{ objectId: 1, count: 2 }] });
  });

  it('refuses an unknown relationship, a missing objectIds and a negative resultOffset', async () => {
    expect((await related(2, { objectIds: '1', relationshipId: '5' })).error.details[0]).toMatch(
      /no relationship 5/,
    );
    expect((await related(2, { relationshipId: '0' })).error.details[0]).toMatch(/objectIds/);
    expect(
      (await related(2, { objectIds: '1', relationshipId: '0', resultOffset: '-1' })).error.details[0],
    ).toMatch(/resultOffset/);
  });

  it('the admin API removes and adds relationships in pairs only', async () => {
    const oneSide = await edit(`${admin}/2/deleteFromDefinition`, token, {
      deleteFromDefinition: { relationships: [{ id: 0 }] },
    });
    expect(oneSide.error.details[0]).toBe('layer 3: layer 2 does not list relationship 0 back to layer 3');
    const both = await edit(`${admin}/deleteFromDefinition`, token, {
      deleteFromDefinition: {
        layers: [
          { id: 2, relationships: [{ id: 0 }] },
          { id: 3, relationships: [{ id: 0 }] },
        ],
      },
    });
    expect(both).toEqual({ success: true });
    expect((await related(2, { objectIds: '1', relationshipId: '0' })).error.code).toBe(400);

    // places.rank ↔ inspections.parcel: Berlin (rank 1) has inspections 1 and 3, London (rank 2) has 2.
    const side = { name: 'rank_inspections', cardinality: 'esriRelCardinalityOneToMany', composite: false };
    const added = await edit(`${admin}/addToDefinition`, token, {
      addToDefinition: {
        layers: [
          {
            id: 0,
            relationships: [
              { ...side, id: 1, relatedTableId: 3, role: 'esriRelRoleOrigin', keyField: 'rank' },
            ],
          },
          {
            id: 3,
            relationships: [
              { ...side, id: 1, relatedTableId: 0, role: 'esriRelRoleDestination', keyField: 'parcel' },
            ],
          },
        ],
      },
    });
    expect(added).toEqual({ success: true });
    const res = await related(0, { objectIds: '1,2,3', relationshipId: '1', returnCountOnly: 'true' });
    expect(res).toEqual({
      relatedRecordGroups: [
        { objectId: 1, count: 2 },
        { objectId: 2, count: 1 },
      ],
    });
  });
});
