import type { Hono } from 'hono';

import type { AppEnv } from '../../../api/env.js';
import type { DatabaseHandle } from '../../../db/client.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  featureTableName,
} from '../../../db/repositories/feature-tables.js';
import { upsertLayer } from '../../../db/repositories/services.js';
import { addHostedService, fixtureApp, openFixtureDatabase } from './fixture-app.js';

/** Web Mercator x of a longitude on the equator: R·λ, with R the WGS84 semi-major axis. */
export const mercatorX = (lon: number) => (6378137 * lon * Math.PI) / 180;

export const POINTS = [
  { id: 1, name: 'west', lon: -10 },
  { id: 2, name: 'origin', lon: 0 },
  { id: 3, name: 'east', lon: 10 },
] as const;

export interface HostedPoints {
  app: Hono<AppEnv>;
  database: DatabaseHandle;
  close(): Promise<void>;
}

const NOW = 1_700_000_000_000;

export async function openHostedPoints(): Promise<HostedPoints> {
  const { database, dir } = await openFixtureDatabase('hosted-points-', NOW);
  const itemId = 'a'.repeat(32);
  await addHostedService(database, { itemId, name: 'points', owner: 'owner', now: NOW });
  const table = featureTableName(itemId, 0);
  const columns = [{ name: 'Name', column: 'a_0', type: 'esriFieldTypeString' as const }];
  await createFeatureTable(database, table, columns);
  const lines = POINTS.map(({ id, name, lon }) => {
    const x = mercatorX(lon);
    return `${id}\t${name}\t${JSON.stringify({ x, y: 0 })}\t(${x},0),(${x},0)\n`;
  });
  await copyRows(database, table, copyColumns(columns), lines.join(''));
  await upsertLayer(database.db, {
    serviceItemId: itemId,
    layerId: 0,
    tableName: table,
    definition: {
      id: 0,
      name: 'points',
      type: 'Feature Layer',
      geometryType: 'esriGeometryPoint',
      capabilities: 'Query',
      fields: [
        { name: 'OBJECTID', type: 'esriFieldTypeOID' },
        { name: 'Name', type: 'esriFieldTypeString', length: 10 },
      ],
    },
    columns: [
      { name: 'OBJECTID', column: 'objectid' },
      { name: 'Name', column: 'a_0' },
    ],
    featureCount: POINTS.length,
  });
  const { app, close } = fixtureApp(database, dir, { now: NOW });
  return { app, database, close };
}
