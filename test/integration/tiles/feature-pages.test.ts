import { afterAll, beforeAll, describe, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName } from '../../../db/repositories/feature-tables.js';
import type { DrawableLayer } from '../../../db/repositories/layer-features.js';
import {
  checkClusteredReads,
  checkPagedReads,
  dropPagedTable,
  loadPagedTable,
} from '../../unit/tiles-pipeline/feature-pages-cases.js';
import { stack } from '../support/portal-client.js';

describe('a bundle reading a layer in pages, on PostgreSQL', () => {
  const table = featureTableName(`${Date.now().toString(16)}`.padEnd(32, 'e'), 0);
  let db: DatabaseHandle;
  let layer: DrawableLayer;

  beforeAll(async () => {
    db = await openDatabase({ databaseUrl: stack().databaseUrl, poolSize: 2 });
    layer = await loadPagedTable(db, table);
  });
  afterAll(async () => {
    if (db) await dropPagedTable(db, table);
    await db?.close();
  });

  it('reads in pages the rows one read gives, in its order', async () => {
    await checkPagedReads(db, layer);
  });

  it('reads a cluster the even-spread estimate misses in pages too', async () => {
    await checkClusteredReads(db, layer);
  });
});
