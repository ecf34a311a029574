/**
 * returnIdsOnly on PostgreSQL: the ids are read in keyset batches, each a short statement under the API's
 * statement timeout, and together they are exactly the matching ids, whatever the batch size.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { streamPreparedIds } from '../../../db/repositories/feature-query.js';
import { queryCostLimit } from '../../../db/repositories/query-cost.js';
import { createFieldCatalog } from '../../../lib/query/field-catalog.js';
import type { LayerCatalog } from '../../../lib/query/layer-catalog.js';
import { prepareFeatureQuery } from '../../../lib/query/prepare-feature-query.js';
import { createTestDatabase } from '../support/postgres.js';

const ROWS = 200_000;
const layer: LayerCatalog = {
  table: 'streamed_ids_grid',
  objectIdField: 'OBJECTID',
  fields: createFieldCatalog([
    { name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID', alias: 'OBJECTID' },
    { name: 'Value', column: 'a_0', type: 'esriFieldTypeInteger', alias: 'Value' },
  ]),
  maxRecordCount: 2000,
  hasGeometry: true,
  geometryType: 'esriGeometryPoint',
};

describe('returnIdsOnly batches on PostgreSQL', () => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    handle = await openDatabase({ databaseUrl: db.url, statementTimeoutMs: 5000 });
    // Ids 3, 6, 9, ... (gaps), Value = id % 7.
    await handle.rows(
      sql.raw(
        `create table streamed_ids_grid as select 3 * g as objectid, (3 * g) % 7 as a_0, ` +
          `box(point(g, 0), point(g, 0)) as bbox, null::text as shape from generate_series(1, ${ROWS}) g`,
      ),
    );
    await handle.rows(sql.raw('create unique index on streamed_ids_grid (objectid)'));
    await handle.rows(sql.raw('analyze streamed_ids_grid'));
  }, 120_000);
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  it.each([10_000, 7_777])('reads exactly the matching ids in batches of %i', async (batch) => {
    const expected = (
      await handle.rows<{ objectid: number }>(
        sql.raw('select objectid from streamed_ids_grid where a_0 in (2, 5) order by objectid'),
      )
    ).map((r) => r.objectid);
    const prepared = prepareFeatureQuery({ where: 'Value = 2 OR Value = 5', returnidsonly: 'true' }, layer, {
      wkid: 3857,
    });
    const ids: number[] = [];
    let batches = 0;
    for await (const b of streamPreparedIds(handle, prepared, batch)) {
      expect(b.length).toBeLessThanOrEqual(batch);
      batches++;
      for (const id of b) ids.push(id);
    }
    expect(ids).toEqual(expected);
    expect(batches).toBe(Math.ceil(expected.length / batch));
    // PostgreSQL keeps its statement timeout; the planner-cost bound is the embedded PGlite's only.
    expect(queryCostLimit(handle)).toBeUndefined();
    const [row] = await handle.rows<{ statement_timeout: string }>(sql`show statement_timeout`);
    expect(row.statement_timeout).toBe('5s');
  });
});
