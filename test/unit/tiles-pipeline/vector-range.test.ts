/**
 * Vector tiles of a range where a layer has more features than a build reads at once: the range is cut
 * in quarters (counted first, never read whole), the tiles come out byte for byte as one read makes
 * them, and a single tile with more than that is refused with a 400 naming it. On the embedded PGlite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { type SQL, sql } from 'drizzle-orm';
import { PbfReader } from 'pbf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeVectorRange, quarters, type VectorSource } from '../../../activities/tiles/vector-bundle.js';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import { featureTableName } from '../../../db/repositories/feature-tables.js';
import { isGeoError } from '../../../lib/errors.js';
import { type Bounds, WEB_MERCATOR } from '../../../lib/geometry/types.js';
import { tileRange } from '../../../lib/tiles/web-mercator.js';
import { loadPagedTable } from './feature-pages-cases.js';

const SQUARE: Bounds = [-9_800_000, 5_100_000, -9_700_000, 5_200_000];

describe('vector tiles of a range too dense to read at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vector-range-'));
  let db: DatabaseHandle;
  let source: VectorSource;

  beforeAll(async () => {
    db = await openDatabase({ pgliteDir: dir });
    const layer = await loadPagedTable(db, featureTableName('F'.repeat(32), 0));
    const columns = [
      { name: 'OBJECTID', column: 'objectid' },
      { name: 'kind', column: 'a_0' },
    ];
    source = {
      storageSR: WEB_MERCATOR,
      layers: [
        { layer: { ...layer, rendererColumns: columns }, tileLayer: 'points', objectIdField: 'OBJECTID' },
      ],
    };
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const encode = async (level: number, atOnce: number) => {
    const tiles = new Map<string, Buffer>();
    // The most rows any one statement returned: what the build held at once.
    let mostRows = 0;
    const counted: DatabaseHandle = {
      ...db,
      rows: async <T>(query: SQL) => {
        const rows = await db.rows<T>(query);
        mostRows = Math.max(mostRows, rows.length);
        return rows;
      },
    };
    const out = await encodeVectorRange(
      counted,
      source,
      tileRange(SQUARE, level),
      14,
      (t) => void tiles.set(`${t.level}/${t.row}/${t.col}`, Buffer.from(t.bytes)),
      () => {},
      atOnce,
    );
    return { tiles, out, mostRows };
  };

  it('cuts the range and encodes the same tiles', async () => {
    // Level 10 tiles are about 39 km across: the 100 km square of 3,000 points spans 3 to 4 a side.
    const once = await encode(10, 10_000);
    const cut = await encode(10, 1_200);
    expect(once.tiles.size).toBeGreaterThanOrEqual(9);
    expect(once.out.tiles).toBe(once.tiles.size);
    expect([...cut.tiles.keys()].sort()).toEqual([...once.tiles.keys()].sort());
    for (const [key, bytes] of once.tiles) expect(cut.tiles.get(key)?.equals(bytes), key).toBe(true);
    expect(cut.out).toEqual(once.out);
    expect(once.mostRows).toBe(3000);
    expect(cut.mostRows).toBeGreaterThan(100);
    expect(cut.mostRows).toBeLessThanOrEqual(1_200);
  });

  it('refuses a tile holding more than a build reads at once', async () => {
    // A level-6 tile (626 km) holds all 3,000 points.
    const failure = await encode(6, 2_999).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isGeoError(failure) && failure.code).toBe(400);
    const t = tileRange(SQUARE, 6);
    expect((failure as Error).message).toBe(
      `Vector tile 6/${t.minRow}/${t.minCol} would hold more than 2,999 features of layer 'points'.`,
    );
    expect((await encode(6, 3_000)).tiles.size).toBe(1);
  });

  it("puts a tile's features in object id order whatever order the query scans", async () => {
    // The points were loaded in object id order, so a scan of the table gives that order; the spatial
    // index gives its own.
    await db.rows(sql`set enable_seqscan = off`);
    await db.rows(sql`set enable_bitmapscan = off`);
    try {
      const { tiles } = await encode(10, 10_000);
      let features = 0;
      for (const [key, gz] of tiles) {
        const layer = new VectorTile(new PbfReader(gunzipSync(gz))).layers.points;
        const ids = Array.from({ length: layer.length }, (_, i) => Number(layer.feature(i).id));
        expect(ids, key).toEqual([...ids].sort((a, b) => a - b));
        features += ids.length;
      }
      expect(features).toBeGreaterThanOrEqual(3000);
    } finally {
      await db.rows(sql`reset enable_seqscan`);
      await db.rows(sql`reset enable_bitmapscan`);
    }
  });

  it('quarters a range by halving its rows and columns', () => {
    expect(quarters({ level: 3, minRow: 0, maxRow: 7, minCol: 2, maxCol: 4 })).toEqual([
      { level: 3, minRow: 0, maxRow: 3, minCol: 2, maxCol: 3 },
      { level: 3, minRow: 0, maxRow: 3, minCol: 4, maxCol: 4 },
      { level: 3, minRow: 4, maxRow: 7, minCol: 2, maxCol: 3 },
      { level: 3, minRow: 4, maxRow: 7, minCol: 4, maxCol: 4 },
    ]);
    expect(quarters({ level: 3, minRow: 5, maxRow: 5, minCol: 1, maxCol: 2 })).toEqual([
      { level: 3, minRow: 5, maxRow: 5, minCol: 1, maxCol: 1 },
      { level: 3, minRow: 5, maxRow: 5, minCol: 2, maxCol: 2 },
    ]);
    expect(quarters({ level: 3, minRow: 5, maxRow: 5, minCol: 1, maxCol: 1 })).toHaveLength(1);
  });
});
