/**
 * A PGlite database holding one public hosted feature service, `points`, stored in Web Mercator:
 * three points on the equator at longitudes -10, 0 and 10, named west, origin and east. The app is
 * built over it with `createApp`, so routes are exercised through `app.request()` without a server.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Hono } from 'hono';

import type { AppEnv } from '../../../api/env.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  featureTableName,
} from '../../../db/repositories/feature-tables.js';
import { upsertLayer } from '../../../db/repositories/services.js';
import { insertUser } from '../../../db/repositories/users.js';
import { addHostedService, fixtureApp } from './fixture-app.js';

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
  const dir = mkdtempSync(join(tmpdir(), 'hosted-points-'));
  const database = await openDatabase({ pgliteDir: join(dir, 'db') });
  await database.migrate();
  const itemId = 'a'.repeat(32);
  await insertUser(database.db, {
    username: 'owner',
    role: 'org_admin',
    passwordHash: 'x',
    passwordChangedAt: NOW,
    created: NOW,
    modified: NOW,
  });
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
