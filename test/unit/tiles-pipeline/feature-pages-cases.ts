/**
 * The checks of a bundle's paged reads (db/repositories/layer-features.ts featurePagesIn), run on the
 * embedded PGlite (unit) and on PostgreSQL (integration): the pages together are featuresIn's one read,
 * row for row and in its order, on a table whose physical order is not its object id order.
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { rangeLayers, rangesLayers } from '../../../activities/tiles/range-layers.js';
import { drawnCount, rangeBounds } from '../../../activities/tiles/render-bundle.js';
import type { DatabaseHandle } from '../../../db/client.js';
import {
  copyColumns,
  copyRows,
  createFeatureTable,
  dropFeatureTable,
  indexFeatureTable,
} from '../../../db/repositories/feature-tables.js';
import {
  type DrawableLayer,
  type DrawnFeatures,
  featurePagesIn,
  featuresIn,
  featuresInParts,
  featuresUpTo,
  type LocatedFeature,
} from '../../../db/repositories/layer-features.js';
import type { Bounds } from '../../../lib/geometry/types.js';
import { WEB_MERCATOR } from '../../../lib/geometry/types.js';
import { isPacked } from '../../../lib/render/packed-points.js';
import { tileRange } from '../../../lib/tiles/web-mercator.js';

const COLUMNS = [{ name: 'kind', column: 'a_0', type: 'esriFieldTypeString' as const }];

/** 3,000 places over a 100 km square (a seeded generator): object id i + 1, kind a, b or c in turn. */
export function seededPlaces(): { objectId: number; kind: string; x: number; y: number }[] {
  let seed = 7;
  const rand = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  return Array.from({ length: 3000 }, (_, i) => {
    const x = -9_800_000 + rand() * 100_000;
    const y = 5_100_000 + rand() * 100_000;
    return { objectId: i + 1, kind: ['a', 'b', 'c'][i % 3], x, y };
  });
}

/** 3,000 points over a 100 km square (seededPlaces), every third one deleted and loaded again. */
export async function loadPagedTable(db: DatabaseHandle, table: string): Promise<DrawableLayer> {
  const rows = seededPlaces().map(
    ({ objectId, kind, x, y }) => `${objectId}\t${kind}\t\\N\t(${x},${y}),(${x},${y})\n`,
  );
  await createFeatureTable(db, table, COLUMNS);
  await copyRows(db, table, copyColumns(COLUMNS), rows.join(''));
  // Deleted and added again: the new versions sit after the others, so the table's physical order
  // (the order a page walks) is no longer the object id order.
  await db.rows(sql.raw(`delete from "${table}" where objectid % 3 = 0`));
  await copyRows(db, table, copyColumns(COLUMNS), rows.filter((_, i) => (i + 1) % 3 === 0).join(''));
  await indexFeatureTable(db, table, 'esriGeometryPoint');
  return {
    layerId: 0,
    name: 'points',
    tableName: table,
    geometryType: 'esriGeometryPoint',
    drawingInfo: null,
    rendererColumns: [],
    extent: [-9_800_000, 5_100_000, -9_700_000, 5_200_000],
    featureCount: 3000,
  };
}

const keyOf = (f: LocatedFeature) => JSON.stringify([f.geometry, f.attributes]);

async function pagesOf<T>(pages: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(page);
  return out;
}

export async function checkPagedReads(db: DatabaseHandle, layer: DrawableLayer): Promise<void> {
  const areas: Bounds[] = [
    [-9_800_000, 5_100_000, -9_700_000, 5_200_000],
    [-9_790_000, 5_130_000, -9_745_000, 5_160_000],
  ];
  for (const withKind of [false, true]) {
    const l = withKind ? { ...layer, rendererColumns: [{ name: 'kind', column: 'a_0' }] } : layer;
    for (const area of areas) {
      const whole = await featuresIn(db, l, WEB_MERCATOR, area);
      const pages = await pagesOf(featurePagesIn(db, l, WEB_MERCATOR, area, 250));
      // The expected rows, counted from the generator's box independently of both reads.
      const inside = whole.filter((f) => {
        const { x, y } = f.geometry as { x: number; y: number };
        return x >= area[0] && x <= area[2] && y >= area[1] && y <= area[3];
      });
      expect(inside.length).toBe(whole.length);
      expect(whole.length).toBeGreaterThan(100);
      expect(pages.length).toBeGreaterThan(5);
      expect(Math.max(...pages.map((p) => p.length))).toBeLessThan(600);
      expect(pages.flat().map(keyOf)).toEqual(whole.map(keyOf));
      if (withKind) expect(new Set(whole.map((f) => f.attributes?.kind))).toEqual(new Set(['a', 'b', 'c']));
      // Read packed for drawing: points without attributes come as x, y pairs (the same doubles, in the
      // same order); points drawn with an attribute still come as features.
      const packedPages = await pagesOf(featurePagesIn(db, l, WEB_MERCATOR, area, 250, true));
      const packedWhole = await featuresUpTo(db, l, WEB_MERCATOR, area, 5000, true);
      for (const read of [...packedPages, packedWhole]) expect(read && isPacked(read)).toBe(!withKind);
      const pairs = (reads: (DrawnFeatures | undefined)[]) =>
        reads.flatMap((r) =>
          !r
            ? []
            : isPacked(r)
              ? [...r.xy]
              : r.flatMap((f) => [(f.geometry as { x: number }).x, (f.geometry as { y: number }).y]),
        );
      const expected = whole.flatMap((f) => [
        (f.geometry as { x: number }).x,
        (f.geometry as { y: number }).y,
      ]);
      expect(pairs(packedPages)).toEqual(expected);
      expect(pairs([packedWhole])).toEqual(expected);
    }
  }
  // The whole square holds about 3,000: read at once under that, in pages over it.
  expect((await pagesOf(featuresInParts(db, layer, WEB_MERCATOR, areas[0], 5000))).length).toBe(1);
  expect((await pagesOf(featuresInParts(db, layer, WEB_MERCATOR, areas[0], 500))).length).toBeGreaterThan(1);
  // Outside the layer's extent nothing is expected: one read, empty.
  const away: Bounds = [0, 0, 1000, 1000];
  expect(await pagesOf(featuresInParts(db, layer, WEB_MERCATOR, away, 10))).toEqual([[]]);
}

/**
 * The same 3,000 points, with the layer's extent the whole world (as one far-off feature would make
 * it): spread evenly, a few would be expected in the points' square, yet all of them are there. Reads
 * capped at fewer than that are found out and read in pages.
 */
export async function checkClusteredReads(db: DatabaseHandle, layer: DrawableLayer): Promise<void> {
  const world: Bounds = [-20_037_508, -20_037_508, 20_037_508, 20_037_508];
  const square: Bounds = [-9_800_000, 5_100_000, -9_700_000, 5_200_000];
  const clustered = { ...layer, extent: world };
  for (const withKind of [false, true]) {
    const l = withKind ? { ...clustered, rendererColumns: [{ name: 'kind', column: 'a_0' }] } : clustered;
    const whole = await featuresIn(db, l, WEB_MERCATOR, square);
    expect(whole.length).toBe(3000);
    expect(await featuresUpTo(db, l, WEB_MERCATOR, square, 2999)).toBeUndefined();
    expect(await featuresUpTo(db, l, WEB_MERCATOR, square, 500)).toBeUndefined();
    expect((await featuresUpTo(db, l, WEB_MERCATOR, square, 3000))?.map(keyOf)).toEqual(whole.map(keyOf));
    const pages = await pagesOf(featuresInParts(db, l, WEB_MERCATOR, square, 500));
    expect(pages.length).toBeGreaterThan(3);
    expect(Math.max(...pages.map((p) => p.length))).toBeLessThan(1200);
    expect(pages.flat().map(keyOf)).toEqual(whole.map(keyOf));
  }
  // A level-5 tile holds the square: the range is read at once only where its budget covers all 3,000.
  const range = tileRange(square, 5);
  expect(range.minRow === range.maxRow && range.minCol === range.maxCol).toBe(true);
  const [atOnce] = await rangeLayers(db, [clustered], WEB_MERCATOR, range, 3000);
  expect(atOnce.features && drawnCount(atOnce.features)).toBe(3000);
  const [perMetatile] = await rangeLayers(db, [clustered], WEB_MERCATOR, range, 500);
  expect(perMetatile.features).toBeUndefined();
  const read = perMetatile.read ? await pagesOf(perMetatile.read(square)) : [];
  expect(read.reduce((n, page) => n + drawnCount(page), 0)).toBe(3000);
}

/**
 * A group of small bundles reads each layer once for all of its ranges (rangesLayers): the read holds
 * every point inside each range, and only those of the box around them all (grown by a symbol's reach),
 * not the whole layer.
 */
export async function checkGroupRead(db: DatabaseHandle, layer: DrawableLayer): Promise<void> {
  const ranges = [
    tileRange([-9_799_000, 5_101_000, -9_795_000, 5_105_000], 14),
    tileRange([-9_789_000, 5_111_000, -9_785_000, 5_115_000], 14),
    tileRange([-9_796_000, 5_108_000, -9_794_000, 5_110_000], 13),
  ];
  const [read] = await rangesLayers(db, [layer], WEB_MERCATOR, ranges, 3000);
  const features = read?.features;
  if (!features || !isPacked(features)) throw new Error('expected the points read at once, packed');
  const got = new Set<string>();
  for (let i = 0; i < features.xy.length; i += 2) got.add(`${features.xy[i]} ${features.xy[i + 1]}`);
  // The expected points, from the generator itself: those inside each range's tiles.
  const places = seededPlaces();
  for (const r of ranges) {
    const [x0, y0, x1, y1] = rangeBounds(r);
    const inside = places.filter((p) => p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1);
    expect(inside.length).toBeGreaterThan(0);
    for (const p of inside) expect(got.has(`${p.x} ${p.y}`)).toBe(true);
  }
  // Only the box around the ranges (a symbol's reach beyond them), not the whole square of 3,000.
  expect(got.size).toBeLessThan(300);
  // One range alone reads what rangeLayers reads for it.
  const [one] = await rangesLayers(db, [layer], WEB_MERCATOR, [ranges[0]], 3000);
  const [single] = await rangeLayers(db, [layer], WEB_MERCATOR, ranges[0], 3000);
  expect(one.features).toEqual(single.features);
  expect(await rangesLayers(db, [layer], WEB_MERCATOR, [], 3000)).toEqual([]);
}

export async function dropPagedTable(db: DatabaseHandle, table: string): Promise<void> {
  await dropFeatureTable(db, table);
}
