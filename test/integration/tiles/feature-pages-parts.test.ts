/**
 * A bundle's paged reads (db/repositories/layer-features.ts featurePagesIn) of a layer whose table is
 * partitioned by object id, as a large load on PostgreSQL leaves it: the parent has no blocks of its
 * own, so each part is read in runs of its own blocks, part after part. The expected rows and their
 * order come from the generator's coordinates and each row's part and physical address (ctid), not
 * from the code under test.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../../db/client.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  dropFeatureTable,
  featureTableName,
  indexFeaturePart,
  indexFeatureTable,
  partName,
} from '../../../db/repositories/feature-tables.js';
import {
  type DrawableLayer,
  type DrawnFeatures,
  featurePagesIn,
  featuresIn,
  type LocatedFeature,
} from '../../../db/repositories/layer-features.js';
import type { Bounds, EsriGeometry, EsriGeometryType } from '../../../lib/geometry/types.js';
import { WEB_MERCATOR } from '../../../lib/geometry/types.js';
import { isPacked } from '../../../lib/render/packed-points.js';
import { seededPlaces } from '../../unit/tiles-pipeline/feature-pages-cases.js';
import { stack } from '../support/portal-client.js';

const COLUMNS = [{ name: 'kind', column: 'a_0', type: 'esriFieldTypeString' as const }];
/** Three parts of 1,000 object ids each. */
const BOUNDS = [1001, 2001];
const partOf = (objectId: number) => BOUNDS.filter((b) => b <= objectId).length;
/** A polygon layer's features: squares of this side (metres) with a place at their lower left. */
const SIDE = 500;
const PAGE_ROWS = 250;
const AREAS: Bounds[] = [
  [-9_800_000, 5_100_000, -9_700_000, 5_200_000],
  [-9_790_000, 5_130_000, -9_745_000, 5_160_000],
];

type Place = ReturnType<typeof seededPlaces>[number];

const geometryOf = (p: Place, isPoint: boolean): EsriGeometry =>
  isPoint
    ? { x: p.x, y: p.y }
    : {
        rings: [
          [
            [p.x, p.y],
            [p.x, p.y + SIDE],
            [p.x + SIDE, p.y + SIDE],
            [p.x + SIDE, p.y],
            [p.x, p.y],
          ],
        ],
      };

/** Whether a place's feature meets `area` as the stored box does (`&&`: edges touching count). */
const meets = (p: Place, isPoint: boolean, a: Bounds) => {
  const size = isPoint ? 0 : SIDE;
  return p.x <= a[2] && p.x + size >= a[0] && p.y <= a[3] && p.y + size >= a[1];
};

/** A place's row as COPY text: object id, kind, shape (none for a point: its box is the point), box. */
const copyLine = (p: Place, isPoint: boolean) => {
  const shape = isPoint ? '\\N' : JSON.stringify(geometryOf(p, false));
  const size = isPoint ? 0 : SIDE;
  return `${p.objectId}\t${p.kind}\t${shape}\t(${p.x + size},${p.y + size}),(${p.x},${p.y})\n`;
};

/**
 * The places in a partitioned table, every third deleted and loaded again (so within each part the
 * physical order is not the object id order); the first part indexed as a load does while it goes on,
 * the others by the table's own indexes.
 */
async function loadPartedTable(
  db: DatabaseHandle,
  table: string,
  geometryType: EsriGeometryType,
): Promise<DrawableLayer> {
  const isPoint = geometryType === 'esriGeometryPoint';
  const line = (p: Place) => copyLine(p, isPoint);
  const places = seededPlaces();
  await createFeatureTable(db, table, COLUMNS, BOUNDS);
  await copyRows(db, table, copyColumns(COLUMNS), places.map(line).join(''));
  await db.rows(sql.raw(`delete from "${table}" where objectid % 3 = 0`));
  await copyRows(
    db,
    table,
    copyColumns(COLUMNS),
    places
      .filter((p) => p.objectId % 3 === 0)
      .map(line)
      .join(''),
  );
  await indexFeaturePart(db, partName(table, 0), geometryType, BOUNDS.length + 1);
  await indexFeatureTable(db, table, geometryType);
  return {
    layerId: 0,
    name: isPoint ? 'points' : 'squares',
    tableName: table,
    geometryType,
    drawingInfo: null,
    rendererColumns: [],
    extent: [-9_800_000, 5_100_000, -9_700_000 + SIDE, 5_200_000 + SIDE],
    featureCount: places.length,
  };
}

/** The places in the table's physical order: part after part (object id order), then by ctid. */
async function physicalOrder(db: DatabaseHandle, table: string): Promise<Place[]> {
  const rows = await db.rows<{ objectid: number; part: string; at: string }>(
    sql.raw(`select objectid, tableoid::regclass::text as part, ctid::text as at from "${table}"`),
  );
  const byId = new Map(seededPlaces().map((p) => [p.objectId, p]));
  const address = (at: string) => at.slice(1, -1).split(',').map(Number);
  const placed = rows.map((r) => {
    expect(r.part).toBe(partName(table, partOf(r.objectid)));
    const [block, offset] = address(r.at);
    return { place: byId.get(r.objectid) as Place, part: partOf(r.objectid), block, offset };
  });
  placed.sort((a, b) => a.part - b.part || a.block - b.block || a.offset - b.offset);
  return placed.map((p) => p.place);
}

const keyOf = (f: LocatedFeature) => JSON.stringify([f.geometry, f.attributes]);
const placeKey = (p: Place, isPoint: boolean, withKind: boolean) =>
  JSON.stringify([geometryOf(p, isPoint), withKind ? { kind: p.kind } : {}]);

async function pagesOf<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

/** A read's points as x, y pairs, whether it came packed or as features. */
const pairsOf = (reads: DrawnFeatures[]) =>
  reads.flatMap((r) =>
    isPacked(r)
      ? [...r.xy]
      : r.flatMap((f) => [(f.geometry as { x: number }).x, (f.geometry as { y: number }).y]),
  );

describe.each([
  ['points', 'esriGeometryPoint', 1],
  ['polygons', 'esriGeometryPolygon', 2],
] as const)(
  'a bundle reading %s in pages from a table in parts, on PostgreSQL',
  (_, geometryType, layerId) => {
    const table = featureTableName(`${Date.now().toString(16)}`.padEnd(32, 'a'), layerId);
    const isPoint = geometryType === 'esriGeometryPoint';
    let db: DatabaseHandle;
    let layer: DrawableLayer;
    let order: Place[];

    beforeAll(async () => {
      db = await openDatabase({ databaseUrl: stack().databaseUrl, poolSize: 2 });
      layer = await loadPartedTable(db, table, geometryType);
      order = await physicalOrder(db, table);
    });
    afterAll(async () => {
      if (db) await dropFeatureTable(db, table);
      await db?.close();
    });

    it.each([false, true])(
      'reads each part in pages of its own blocks, in physical order (kind drawn: %s)',
      async (withKind) => {
        const l = withKind ? { ...layer, rendererColumns: [{ name: 'kind', column: 'a_0' }] } : layer;
        const partByKey = new Map(order.map((p) => [placeKey(p, isPoint, withKind), partOf(p.objectId)]));
        for (const area of AREAS) {
          const expected = order
            .filter((p) => meets(p, isPoint, area))
            .map((p) => placeKey(p, isPoint, withKind));
          expect(expected.length).toBeGreaterThan(100);
          const pages = await pagesOf(featurePagesIn(db, l, WEB_MERCATOR, area, PAGE_ROWS));
          expect(pages.flat().map(keyOf)).toEqual(expected);
          // featuresIn's one read through the parent: the same rows (its order is the planner's).
          const whole = (await featuresIn(db, l, WEB_MERCATOR, area)).map(keyOf);
          expect([...whole].sort()).toEqual([...expected].sort());
          // Paged, not read at once: several pages a part, none much over the page's rows, each of one part,
          // the parts in object id order.
          expect(pages.length).toBeGreaterThan(2 * (BOUNDS.length + 1));
          expect(Math.max(...pages.map((p) => p.length))).toBeLessThan(600);
          const parts = pages.map((p) => [...new Set(p.map((f) => partByKey.get(keyOf(f))))]);
          for (const p of parts) expect(p.length).toBeLessThanOrEqual(1);
          const seen = parts.flat() as number[];
          expect(seen).toEqual([...seen].sort((a, b) => a - b));
          expect(new Set(seen)).toEqual(new Set([0, 1, 2]));
        }
      },
    );

    it('reads for drawing (packed) the same rows in the same order', async () => {
      for (const area of AREAS) {
        const inArea = order.filter((p) => meets(p, isPoint, area));
        const pages = await pagesOf(featurePagesIn(db, layer, WEB_MERCATOR, area, PAGE_ROWS, true));
        expect(pages.length).toBeGreaterThan(2 * (BOUNDS.length + 1));
        // Points without attributes come as x, y pairs; polygons as features.
        for (const page of pages) expect(isPacked(page)).toBe(isPoint);
        if (isPoint) expect(pairsOf(pages)).toEqual(inArea.flatMap((p) => [p.x, p.y]));
        else
          expect((pages as LocatedFeature[][]).flat().map(keyOf)).toEqual(
            inArea.map((p) => placeKey(p, false, false)),
          );
      }
    });

    it('leaves out no row added to the last part after the sizes were read', async () => {
      // 600 rows at the square's centre into the last part, more than its blocks have room for, once the
      // first page has been read (and the sizes with it).
      const added = Array.from({ length: 600 }, (_, i) => ({
        objectId: 3001 + i,
        kind: 'a',
        x: -9_750_000 + i,
        y: 5_150_000,
      }));
      const area = AREAS[0];
      const pages = featurePagesIn(db, layer, WEB_MERCATOR, area, PAGE_ROWS);
      const first = await pages.next();
      try {
        await copyRows(db, table, copyColumns(COLUMNS), added.map((p) => copyLine(p, isPoint)).join(''));
        const rest = await pagesOf({ [Symbol.asyncIterator]: () => pages });
        const read = [...(first.value ?? []), ...rest.flat()].map(keyOf);
        const expected = [...order.filter((p) => meets(p, isPoint, area)), ...added].map((p) =>
          placeKey(p, isPoint, false),
        );
        expect(read.length).toBe(expected.length);
        expect([...read].sort()).toEqual([...expected].sort());
      } finally {
        await db.rows(sql.raw(`delete from "${table}" where objectid > 3000`));
      }
    });
  },
);
