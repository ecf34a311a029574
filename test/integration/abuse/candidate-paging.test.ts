/**
 * An exact spatial filter reads its candidates page by page: the matching ids are the same whatever the
 * page size, so a filter over a huge layer never holds every candidate's shape at once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { runFeatureQuery } from '../../../db/repositories/feature-query.js';
import type { EsriGeometry } from '../../../lib/geometry/types.js';
import { createFieldCatalog } from '../../../lib/query/field-catalog.js';
import type { LayerCatalog } from '../../../lib/query/layer-catalog.js';
import { normalizeQuery } from '../../../lib/query/normalize/normalize-query.js';
import { planFeatureQuery } from '../../../lib/query/query-plan.js';
import { createTestDatabase } from '../support/postgres.js';

const layer: LayerCatalog = {
  table: 'abuse_grid',
  objectIdField: 'OBJECTID',
  fields: createFieldCatalog([
    { name: 'OBJECTID', column: 'objectid', type: 'esriFieldTypeOID', alias: 'OBJECTID' },
  ]),
  maxRecordCount: 2000,
  hasGeometry: true,
  geometryType: 'esriGeometryPolyline',
};

// A 10 × 10 grid of short horizontal lines at integer coordinates, objectid = 10 y + x + 1.
const lines = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, x: i % 10, y: Math.floor(i / 10) }));
// A triangle below the diagonal y = x of the square [0, 10]: the bbox test alone would pass them all.
const triangle = {
  rings: [
    [
      [-0.5, -0.5],
      [10.5, -0.5],
      [10.5, 10.5],
      [-0.5, -0.5],
    ],
  ],
};
// A line from (x, y) to (x + 0.2, y) lies inside when y < x (strictly below the diagonal, with margin).
const expected = lines.filter((l) => l.y < l.x).map((l) => l.id);

describe('candidate paging of exact spatial filters', () => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    handle = await openDatabase({ databaseUrl: db.url });
    await handle.rows(sql`create table abuse_grid (objectid integer primary key, bbox box, shape text)`);
    for (const l of lines) {
      const shape = JSON.stringify({
        paths: [
          [
            [l.x, l.y],
            [l.x + 0.2, l.y],
          ],
        ],
      });
      await handle.rows(
        sql`insert into abuse_grid values (${l.id}, box(point(${l.x}, ${l.y}), point(${l.x + 0.2}, ${l.y})), ${shape})`,
      );
    }
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });

  it.each([1, 7, 2000])('finds the same features with candidate pages of %i', async (page) => {
    const q = normalizeQuery(
      { geometry: JSON.stringify(triangle), geometrytype: 'esriGeometryPolygon', returnidsonly: 'true' },
      layer,
    );
    const plan = planFeatureQuery(q, layer);
    expect(plan.spatialFilter).not.toBeNull();
    const inside = (shape: EsriGeometry) => {
      const [[a, b]] = (shape as { paths: number[][][] }).paths;
      return a[1] < a[0] && b[1] < b[0];
    };
    const rows = await runFeatureQuery(handle, plan, inside, page);
    expect(rows.map((r) => Number(r.objectid)).sort((a, b) => a - b)).toEqual(expected);
  });
});
