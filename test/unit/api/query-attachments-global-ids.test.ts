import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertAttachment } from '../../../db/repositories/attachments.js';
import {
  createFeatureTable,
  featureTableName,
  indexFeatureTable,
} from '../../../db/repositories/feature-tables.js';
import { upsertLayer } from '../../../db/repositories/services.js';
import { fuzzRuns, fuzzSeed } from '../abuse/fuzz-support.js';
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

  it('answers any drawn attachment query with attachment groups, a count or a 400', async () => {
    const field = fc.constantFrom(
      'ATTACHMENTID',
      'REL_OBJECTID',
      'GLOBALID',
      'ATT_NAME',
      'CONTENT_TYPE',
      'DATA_SIZE',
      'KEYWORDS',
      'nosuch',
    );
    const literal = fc.constantFrom(
      "'one.txt'",
      "'text/%'",
      '0',
      '7',
      '9223372036854775807',
      '1e308',
      'NULL',
      "''",
      "'{x}'",
    );
    const operand = fc.oneof(
      field,
      literal,
      fc.tuple(field, fc.constantFrom('+', '*', '-', '/'), fc.oneof(field, literal)).map((t) => t.join(' ')),
    );
    const condition = fc.oneof(
      fc.tuple(operand, fc.constantFrom('=', '<>', '<', '>=', 'LIKE'), operand).map((t) => t.join(' ')),
      fc.tuple(operand, fc.constantFrom('IS NULL', 'IS NOT NULL')).map((t) => t.join(' ')),
      fc.string({ maxLength: 30 }),
    );
    const params = fc.record(
      {
        attachmentsDefinitionExpression: condition,
        keywords: fc.constantFrom('', 'a', 'a,b', ' , '),
        size: fc.constantFrom('0,100', '5,1', '1', 'a,b', '-1,5', '0,1e20'),
        orderByFields: fc.constantFrom('ATT_NAME DESC', 'DATA_SIZE', 'nosuch', 'ATT_NAME SIDEWAYS', ''),
        resultOffset: fc.constantFrom('0', '1', '-1', '1e20', 'x'),
        resultRecordCount: fc.constantFrom('1', '0', '99999999999', 'x'),
        returnUrl: fc.constantFrom('true', 'false', 'x'),
        returnCountOnly: fc.constantFrom('true', 'false'),
        returnMetadata: fc.constantFrom('true', 'false'),
        attachmentTypes: fc.constantFrom('text', 'image/png', ''),
        globalIds: fc.constantFrom(GIDS[0], 'x', ''),
        objectIds: fc.constantFrom('1', '1,2', '', '0'),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(params, async (drawn) => {
        const res = await fixture.app.request('/rest/services/Hosted/gids/FeatureServer/0/queryAttachments', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ f: 'json', ...drawn }).toString(),
        });
        const body = (await res.json()) as Record<string, any>;
        const context = `${JSON.stringify(drawn)} -> ${JSON.stringify(body).slice(0, 300)}`;
        expect(res.status, context).toBe(200);
        if (body.error) expect(body.error.code, context).toBe(400);
        else
          expect(Array.isArray(body.attachmentGroups) || typeof body.count === 'number', context).toBe(true);
      }),
      { numRuns: fuzzRuns(60), seed: fuzzSeed() },
    );
  });
});
