import { sql } from 'drizzle-orm';
import type { Hono } from 'hono';

import type { AppEnv } from '../../../api/env.js';
import type { DatabaseHandle } from '../../../db/client.js';
import {
  createFeatureTable,
  type FeatureColumn,
  featureTableName,
  indexFeatureTable,
} from '../../../db/repositories/feature-tables.js';
import { upsertLayer } from '../../../db/repositories/services.js';
import type { ObjectStore } from '../../../infra/object-store.js';
import type { Locator } from '../../../lib/geocode/locator.js';
import type { EsriFieldType } from '../../../lib/query/field-types.js';
import { addHostedService, fixtureApp, openFixtureDatabase } from '../api/fixture-app.js';
import { ADMIN, type InProcessApp, inProcessApp } from '../auth/in-process-app.js';

/** The layer's attribute fields, in column order. */
export const KIND_FIELDS: ReadonlyArray<{ name: string; type: EsriFieldType }> = [
  { name: 'Name', type: 'esriFieldTypeString' },
  { name: 'Code', type: 'esriFieldTypeGUID' },
  { name: 'Count', type: 'esriFieldTypeInteger' },
  { name: 'Small', type: 'esriFieldTypeSmallInteger' },
  { name: 'Big', type: 'esriFieldTypeBigInteger' },
  { name: 'Ratio', type: 'esriFieldTypeDouble' },
  { name: 'Single', type: 'esriFieldTypeSingle' },
  { name: 'Seen', type: 'esriFieldTypeDate' },
  { name: 'Day', type: 'esriFieldTypeDateOnly' },
  { name: 'Clock', type: 'esriFieldTypeTimeOnly' },
  { name: 'Stamp', type: 'esriFieldTypeTimestampOffset' },
];

/** The rows as SQL literals, one list per row in field order. */
const ROWS: string[][] = [
  [
    "'plain'",
    "'{8F2A6D3C-1B4E-4C5D-9E7F-0A1B2C3D4E5F}'",
    '1',
    '1',
    '1',
    '1.5',
    '0.5',
    "'2020-01-01 00:00:00+00'",
    "'2020-01-01'",
    "'12:00:00'",
    "'2020-01-01 00:00:00+02'",
  ],
  [
    "'100% _under_ \\\\ back'",
    "''",
    '2147483647',
    '32767',
    '9223372036854775807',
    '1.7976931348623157e308',
    '3.4028235e38',
    "'9999-12-31 23:59:59.999+00'",
    "'9999-12-31'",
    "'23:59:59.999'",
    "'9999-12-31 23:59:59+00'",
  ],
  [
    "''",
    "'not a guid'",
    '-2147483648',
    '-32768',
    '-9223372036854775808',
    '5e-324',
    '-1.4e-45',
    "'0001-01-01 00:00:00+00'",
    "'0001-01-01'",
    "'00:00:00'",
    "'0001-01-01 00:00:00+00'",
  ],
  ["'Zürich 東京 🚀'", 'null', '0', '0', '0', '-0', '0', "'1970-01-01 00:00:00+00'", 'null', 'null', 'null'],
  ['null', 'null', 'null', 'null', 'null', 'null', 'null', 'null', 'null', 'null', 'null'],
];

export interface HostedKinds {
  app: Hono<AppEnv>;
  database: DatabaseHandle;
  close(): Promise<void>;
}

const NOW = 1_700_000_000_000;

/**
 * Adds the public `kinds` service (item id c…c) owned by `owner`, an existing user, with its one layer
 * and rows; `capabilities` as a layer definition spells them.
 */
export async function addKindsLayer(
  database: DatabaseHandle,
  owner: string,
  capabilities = 'Query',
): Promise<void> {
  const itemId = 'c'.repeat(32);
  await addHostedService(database, { itemId, name: 'kinds', owner: owner, now: NOW });
  const table = featureTableName(itemId, 0);
  const columns: FeatureColumn[] = KIND_FIELDS.map((f, i) => ({ ...f, column: `a_${i}` }));
  await createFeatureTable(database, table, columns);
  for (const [i, row] of ROWS.entries()) {
    const [x, y] = [i * 1000, -i * 500];
    await database.rows(
      sql.raw(
        `insert into "${table}" values (${i + 1}, ${row.join(', ')}, '{"x":${x},"y":${y}}', '(${x},${y}),(${x},${y})')`,
      ),
    );
  }
  await indexFeatureTable(database, table, 'esriGeometryPoint');
  await upsertLayer(database.db, {
    serviceItemId: itemId,
    layerId: 0,
    tableName: table,
    definition: {
      id: 0,
      name: 'kinds',
      type: 'Feature Layer',
      geometryType: 'esriGeometryPoint',
      capabilities,
      fields: [
        { name: 'OBJECTID', type: 'esriFieldTypeOID' },
        ...KIND_FIELDS.map((f) => ({ ...f, ...(f.type === 'esriFieldTypeString' ? { length: 40 } : {}) })),
      ],
    },
    columns: [
      { name: 'OBJECTID', column: 'objectid' },
      ...columns.map((c) => ({ name: c.name, column: c.column })),
    ],
    featureCount: ROWS.length,
  });
}

/** `locator`: the GeocodeServer's locator, for tests of geocoding through the whole app. */
export async function openHostedKinds(options: { locator?: Locator } = {}): Promise<HostedKinds> {
  const { database, dir } = await openFixtureDatabase('hosted-kinds-', NOW);
  await addKindsLayer(database, 'owner');
  // Drawn map images (export with f=json) are kept here; nothing else reads the store.
  const objects = new Map<string, Buffer>();
  const store = {
    put: async (key: string, body: Buffer | string) => void objects.set(key, Buffer.from(body)),
    getBuffer: async (key: string) => objects.get(key) ?? Buffer.alloc(0),
    stat: async (key: string) => {
      const b = objects.get(key);
      return b ? { size: b.length, etag: '', lastModified: new Date(NOW) } : undefined;
    },
    remove: async (key: string) => void objects.delete(key),
    list: async (prefix: string) => [...objects.keys()].filter((k) => k.startsWith(prefix)),
  } as unknown as ObjectStore;
  const { app, close } = fixtureApp(database, dir, { now: NOW, store, locator: options.locator });
  return { app, database, close };
}

/**
 * The `kinds` layer in the portal of test/unit/auth/in-process-app.ts (users, tokens, the whole app),
 * owned by its administrator, with `capabilities`; and the administrator's token.
 */
export async function openSignedInKinds(
  capabilities = 'Query',
): Promise<{ app: InProcessApp; token: string }> {
  const app = await inProcessApp();
  await addKindsLayer(app.deps.database, ADMIN.username, capabilities);
  const res = await app.call('/sharing/rest/generateToken', {
    username: ADMIN.username,
    password: ADMIN.password,
    client: 'requestip',
  });
  if (typeof res.json.token !== 'string') throw new Error(`sign-in failed: ${JSON.stringify(res.json)}`);
  return { app, token: res.json.token };
}
