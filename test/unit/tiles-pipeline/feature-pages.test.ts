import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName } from '../../../db/repositories/feature-tables.js';
import type { DrawableLayer } from '../../../db/repositories/layer-features.js';
import {
  checkClusteredReads,
  checkGroupRead,
  checkPagedReads,
  loadPagedTable,
} from './feature-pages-cases.js';

// Embedded PGlite, whose statements run on the worker's thread: what the pages keep short.
describe('a bundle reading a layer in pages, on PGlite', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feature-pages-'));
  let db: DatabaseHandle;
  let layer: DrawableLayer;

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
    layer = await loadPagedTable(db, featureTableName('E'.repeat(32), 0));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads in pages the rows one read gives, in its order', async () => {
    await checkPagedReads(db, layer);
  });

  it('reads a cluster the even-spread estimate misses in pages too', async () => {
    await checkClusteredReads(db, layer);
  });

  it("reads a group of bundles' ranges at once, every range's points and only around them", async () => {
    await checkGroupRead(db, layer);
  });
});
