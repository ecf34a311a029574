import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAttachment } from '../../../db/repositories/attachments.js';
import {
  createFeatureTable,
  featureTableName,
  indexFeatureTable,
} from '../../../db/repositories/feature-tables.js';
import { upsertLayer } from '../../../db/repositories/services.js';
import { addHostedService, type FixtureApp, fixtureApp, openFixtureDatabase } from './fixture-app.js';

const NOW = 1_700_000_000_000;
const ITEM = 'd'.repeat(32);
const GIDS = ['{11111111-1111-4111-8111-111111111111}', '{22222222-2222-4222-8222-222222222222}'];

describe('queryAttachments with globalIds', () => {
  let fixture: FixtureApp;
  const query = async (layer: number, params: Record<string, string>) => {
    const res = await fixture.app.request(
      `/rest/services/Hosted/gids/FeatureServer/${layer}/queryAttachments`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ f: 'json', ...params }).toString(),
      },
    );
    const body = (await res.json()) as Record<string, any>;
    return (
      body.error ??
      body.attachmentGroups.map((g: any) => [g.parentObjectId, g.attachmentInfos.map((a: any) => a.name)])
    );
  };

  beforeAll(async () => {
    const { database, dir } = await openFixtureDatabase('gids-', NOW);
    await addHostedService(database, { itemId: ITEM, name: 'gids', owner: 'owner', now: NOW });
    for (const [layerId, withGlobalIds] of [
      [0, true],
      [1, false],
    ] as const) {
      const table = featureTableName(ITEM, layerId);
      await createFeatureTable(database, table, [
        {
          name: withGlobalIds ? 'GID' : 'Name',
          column: 'a_0',
          type: withGlobalIds ? 'esriFieldTypeGlobalID' : 'esriFieldTypeString',
        },
      ]);
      await database.rows(
        sql.raw(
          `insert into "${table}" values (1, '${GIDS[0]}', '{"x":0,"y":0}', '(0,0),(0,0)'), (2, '${GIDS[1]}', '{"x":1,"y":1}', '(1,1),(1,1)')`,
        ),
      );
      await indexFeatureTable(database, table, 'esriGeometryPoint');
      await upsertLayer(database.db, {
        serviceItemId: ITEM,
        layerId,
        tableName: table,
        definition: {
          id: layerId,
          name: `layer${layerId}`,
          type: 'Feature Layer',
          geometryType: 'esriGeometryPoint',
          capabilities: 'Query',
          hasAttachments: true,
          fields: [
            { name: 'OBJECTID', type: 'esriFieldTypeOID' },
            withGlobalIds
              ? { name: 'GID', type: 'esriFieldTypeGlobalID' }
              : { name: 'Name', type: 'esriFieldTypeString', length: 40 },
          ],
        },
        columns: [
          { name: 'OBJECTID', column: 'objectid' },
          { name: withGlobalIds ? 'GID' : 'Name', column: 'a_0' },
        ],
        featureCount: 2,
      });
      for (const [objectId, name] of [
        [1, 'one.txt'],
        [2, 'two.txt'],
        [2, 'three.txt'],
      ] as const) {
        await insertAttachment(database.db, {
          serviceItemId: ITEM,
          layerId,
          objectId,
          globalId: `{${String(objectId).repeat(8)}-0000-4000-8000-${name.length.toString().padStart(12, '0')}}`,
          name,
          contentType: 'text/plain',
          size: name.length,
          keywords: '',
          objectKey: `items/${ITEM}/attachments/${layerId}/${name}`,
          created: NOW,
        });
      }
    }
    fixture = fixtureApp(database, dir, { now: NOW });
  }, 120_000);
  afterAll(async () => fixture?.close());

  it('selects the features by their global ids, with or without a definitionExpression', async () => {
    expect(await query(0, { globalIds: GIDS[1] })).toEqual([[2, ['two.txt', 'three.txt']]]);
    expect(await query(0, { globalIds: `${GIDS[0]}, ${GIDS[1]}` })).toEqual([
      [1, ['one.txt']],
      [2, ['two.txt', 'three.txt']],
    ]);
    expect(await query(0, { globalIds: GIDS.join(','), definitionExpression: 'OBJECTID = 1' })).toEqual([
      [1, ['one.txt']],
    ]);
    // A quote in an id is a literal character: it matches nothing and breaks nothing.
    expect(await query(0, { globalIds: "x') OR ('1'='1" })).toEqual([]);
  });

  it('refuses global ids on a layer without a GlobalID field, naming the parameter', async () => {
    expect(await query(1, { globalIds: GIDS[0] })).toEqual({
      code: 400,
      message: 'Unable to complete operation.',
      details: ["'globalIds' parameter is invalid", 'the layer has no GlobalID field; use objectIds'],
    });
  });
});
