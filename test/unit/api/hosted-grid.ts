import { sql } from 'drizzle-orm';
import type { Hono } from 'hono';

import type { AppEnv } from '../../../api/env.js';
import type { DatabaseHandle } from '../../../db/client.js';
import {
  createFeatureTable,
  featureTableName,
  indexFeatureTable,
} from '../../../db/repositories/feature-tables.js';
import { upsertLayer } from '../../../db/repositories/services.js';
import { addHostedService, fixtureApp, openFixtureDatabase } from './fixture-app.js';

export interface HostedGrid {
  app: Hono<AppEnv>;
  database: DatabaseHandle;
  table: string;
  close(): Promise<void>;
}

const NOW = 1_700_000_000_000;

export async function openHostedGrid(rows: number): Promise<HostedGrid> {
  const { database, dir } = await openFixtureDatabase('hosted-grid-', NOW);
  const itemId = 'b'.repeat(32);
  await addHostedService(database, { itemId, name: 'grid', owner: 'owner', now: NOW });
  const table = featureTableName(itemId, 0);
  await createFeatureTable(database, table, [
    { name: 'Name', column: 'a_0', type: 'esriFieldTypeString' },
    { name: 'Value', column: 'a_1', type: 'esriFieldTypeInteger' },
  ]);
  await database.rows(
    sql.raw(
      `insert into "${table}" select g, 'name ' || g, g % 1000, '{"x":' || g || ',"y":' || (g % 1000) || '}', ` +
        `box(point(g, g % 1000), point(g, g % 1000)) from generate_series(1, ${rows}) g`,
    ),
  );
  await indexFeatureTable(database, table, 'esriGeometryPoint');
  await upsertLayer(database.db, {
    serviceItemId: itemId,
    layerId: 0,
    tableName: table,
    definition: {
      id: 0,
      name: 'grid',
      type: 'Feature Layer',
      geometryType: 'esriGeometryPoint',
      capabilities: 'Query',
      fields: [
        { name: 'OBJECTID', type: 'esriFieldTypeOID' },
        { name: 'Name', type: 'esriFieldTypeString', length: 20 },
        { name: 'Value', type: 'esriFieldTypeInteger' },
      ],
    },
    columns: [
      { name: 'OBJECTID', column: 'objectid' },
      { name: 'Name', column: 'a_0' },
      { name: 'Value', column: 'a_1' },
    ],
    featureCount: rows,
  });
  const { app, close } = fixtureApp(database, dir, { now: NOW });
  return { app, database, table, close };
}
