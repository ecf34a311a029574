import { AsyncLocalStorage } from 'node:async_hooks';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { type LayerFeatures, renderRange } from '../../../activities/tiles/render-bundle.js';
import {
  drawingThreadCount,
  endDrawingThreads,
  prestartDrawingThreads,
  renderRangeOnThread,
} from '../../../activities/tiles/render-threads.js';
import type {
  DrawableLayer,
  DrawnFeatures,
  LocatedFeature,
} from '../../../db/repositories/layer-features.js';
import type { Bounds } from '../../../lib/geometry/types.js';
import { MarkerSpriteCache } from '../../../lib/render/marker-sprites.js';
import type { RgbaImage } from '../../../lib/render/types.js';
import { lodOf, ORIGIN_X, ORIGIN_Y, TILE_SIZE, tileBounds } from '../../../lib/tiles/web-mercator.js';
import { square } from '../geometry/sample-shapes.js';

afterAll(endDrawingThreads);

const range = { level: 10, minRow: 376, maxRow: 383, minCol: 256, maxCol: 263 };

type Layer = Pick<DrawableLayer, 'drawingInfo' | 'geometryType'>;
const points: Layer = { geometryType: 'esriGeometryPoint', drawingInfo: null };
const PICTURE = 'cGljdHVyZQ==';
const pictured: Layer = {
  geometryType: 'esriGeometryPoint',
  drawingInfo: {
    renderer: {
      type: 'simple',
      symbol: { type: 'esriPMS', imageData: PICTURE, contentType: 'image/png', width: 12, height: 12 },
    },
  } as Layer['drawingInfo'],
};
const zoned: Layer = {
  geometryType: 'esriGeometryPolygon',
  drawingInfo: {
    transparency: 30,
    renderer: {
      type: 'uniqueValue',
      field1: 'zone',
      uniqueValueInfos: [
        {
          value: 'a',
          symbol: { type: 'esriSFS', style: 'esriSFSSolid', color: [200, 30, 30, 255] },
        },
        {
          value: 'b',
          symbol: { type: 'esriSFS', style: 'esriSFSSolid', color: [30, 30, 200, 255] },
        },
      ],
    },
  } as Layer['drawingInfo'],
};

/** A red 8×8 picture, as decodePictures would hand it over. */
const pictures = new Map<string, RgbaImage>([
  [
    PICTURE,
    {
      width: 8,
      height: 8,
      data: new Uint8Array(8 * 8 * 4).map((_, i) => (i % 4 === 1 || i % 4 === 2 ? 0 : 255)),
    },
  ],
]);

const span = lodOf(10).resolution * TILE_SIZE;
const west = ORIGIN_X + range.minCol * span;
const north = ORIGIN_Y - range.minRow * span;

/** Points spread over the range (a fixed sequence). */
function spreadPoints(n: number, seed0: number): LocatedFeature[] {
  let seed = seed0;
  const rand = () => {
    seed = (seed * 48271) % 2147483647;
    return seed / 2147483647;
  };
  return Array.from({ length: n }, () => {
    const x = west + rand() * 8 * span;
    const y = north - rand() * 8 * span;
    return { geometry: { x, y }, attributes: {}, bounds: [x, y, x, y] as Bounds };
  });
}

/** Squares of a tile and a half with a zone each, some across metatile edges. */
function squares(): LocatedFeature[] {
  return Array.from({ length: 6 }, (_, i) => {
    const x0 = west + (0.5 + i * 1.2) * span;
    const y1 = north - (0.7 + i) * span;
    const [x1, y0] = [x0 + 1.5 * span, y1 - 1.5 * span];
    return {
      geometry: square(x0, y0, x1, y1),
      attributes: { zone: i % 2 === 0 ? 'a' : 'b' },
      bounds: [x0, y0, x1, y1] as Bounds,
    };
  });
}

const meets = (a: Bounds, b: Bounds) => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

/** A layer read per metatile, in pages of `pageSize`, recording the areas asked for. */
function paged(layer: Layer, all: LocatedFeature[], pageSize: number, areas: Bounds[]): LayerFeatures {
  return {
    layer,
    sprites: new MarkerSpriteCache(96),
    read: async function* (area: Bounds) {
      areas.push(area);
      const inside = all.filter((f) => meets(f.bounds, area));
      for (let i = 0; i < inside.length; i += pageSize) yield inside.slice(i, i + pageSize);
    },
  };
}

const whole = (layer: Layer, features: DrawnFeatures): LayerFeatures => ({
  layer,
  features,
  sprites: new MarkerSpriteCache(96),
});

interface Drawn {
  tiles: Map<string, Buffer>;
  order: string[];
  progress: number[];
  result: { tiles: number; metatiles: number };
}

async function draw(onThread: boolean, layers: () => LayerFeatures[]): Promise<Drawn> {
  const tiles = new Map<string, Buffer>();
  const order: string[] = [];
  const progress: number[] = [];
  const onTile = (t: { level: number; row: number; col: number; png: Uint8Array }) => {
    order.push(`${t.level}/${t.row}/${t.col}`);
    tiles.set(`${t.row}/${t.col}`, Buffer.from(t.png));
  };
  const onMetatile = (n: number) => {
    progress.push(n);
  };
  const result = onThread
    ? await renderRangeOnThread(2, range, layers(), pictures, onTile, onMetatile)
    : await renderRange(range, layers(), pictures, onTile, onMetatile);
  return { tiles, order, progress, result };
}

function expectSameTiles(got: Drawn, expected: Drawn) {
  expect(got.result).toEqual(expected.result);
  expect([...got.tiles.keys()].sort()).toEqual([...expected.tiles.keys()].sort());
  for (const [k, png] of expected.tiles)
    expect({ k, same: got.tiles.get(k)?.equals(png) }).toEqual({ k, same: true });
  // Every metatile's progress, in order, once each.
  expect(got.progress).toEqual(Array.from({ length: expected.result.metatiles }, (_, i) => i + 1));
}

describe('renderRange in parts', () => {
  it('draws every metatile in exactly one part: the parts together are the whole range', async () => {
    const dots = spreadPoints(120, 19);
    const expected = await draw(false, () => [whole(points, dots)]);
    const seen = new Map<string, Buffer>();
    let metatiles = 0;
    for (let index = 0; index < 3; index++) {
      const part = await renderRange(
        range,
        [whole(points, dots)],
        pictures,
        (t) => {
          expect(seen.has(`${t.row}/${t.col}`)).toBe(false);
          seen.set(`${t.row}/${t.col}`, Buffer.from(t.png));
        },
        () => {},
        { index, of: 3 },
      );
      // Four metatiles in three parts: two, one and one.
      expect(part.metatiles).toBe(index === 0 ? 2 : 1);
      metatiles += part.metatiles;
    }
    expect(metatiles).toBe(expected.result.metatiles);
    expect([...seen.keys()].sort()).toEqual([...expected.tiles.keys()].sort());
    for (const [k, png] of expected.tiles) expect(seen.get(k)?.equals(png)).toBe(true);
  });
});

describe('renderRangeOnThread', () => {
  it('draws points (handed over packed), pictures and attributed polygons as this thread does, byte for byte', async () => {
    const dots = spreadPoints(80, 3);
    const pics = spreadPoints(20, 11);
    const layers = () => [whole(zoned, squares()), whole(points, dots), whole(pictured, pics)];
    const expected = await draw(false, layers);
    const got = await draw(true, layers);
    expect(expected.result.tiles).toBeGreaterThan(30);
    expectSameTiles(got, expected);
    // The colours are the renderer's: a square of zone "a" is red at 70% opacity over nothing.
    const square = squares()[0].bounds;
    const col = Math.floor((square[0] + square[2]) / 2 / span - ORIGIN_X / span);
    const row = Math.floor((ORIGIN_Y - (square[1] + square[3]) / 2) / span);
    const tb = tileBounds({ level: 10, row, col });
    const px = Math.floor((((square[0] + square[2]) / 2 - tb[0]) / span) * TILE_SIZE);
    const py = Math.floor(((tb[3] - (square[1] + square[3]) / 2) / span) * TILE_SIZE);
    const png = got.tiles.get(`${row}/${col}`);
    expect(png).toBeDefined();
    const { data } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (py * TILE_SIZE + px) * 4;
    // A dot may lie on it: look at the square's colour where the alpha is the layer's.
    expect(data[at + 3]).toBeGreaterThanOrEqual(Math.round(255 * 0.7) - 1);
  });

  it('draws points read packed (x, y pairs) as the same points given as features, here and on a thread', async () => {
    const dots = spreadPoints(90, 31);
    const packed = { xy: Float64Array.from(dots.flatMap((f) => [f.bounds[0], f.bounds[1]])) };
    const expected = await draw(false, () => [whole(points, dots)]);
    expectSameTiles(await draw(false, () => [whole(points, packed)]), expected);
    expectSameTiles(await draw(true, () => [whole(points, packed)]), expected);
    // And page by page: packed pages of 7.
    const pagedPacked: LayerFeatures = {
      layer: points,
      sprites: new MarkerSpriteCache(96),
      read: async function* (area: Bounds) {
        const inside = dots.filter((f) => meets(f.bounds, area));
        for (let i = 0; i < inside.length; i += 7)
          yield { xy: Float64Array.from(inside.slice(i, i + 7).flatMap((f) => [f.bounds[0], f.bounds[1]])) };
      },
    };
    expectSameTiles(await draw(true, () => [pagedPacked]), expected);
    expectSameTiles(await draw(false, () => [pagedPacked]), expected);
  });

  it('reads a layer too large to hold page by page as the thread asks, with the same tiles and areas', async () => {
    const dots = spreadPoints(150, 5);
    const here: Bounds[] = [];
    const there: Bounds[] = [];
    const expected = await draw(false, () => [paged(points, dots, 7, here), whole(zoned, squares())]);
    const got = await draw(true, () => [paged(points, dots, 7, there), whole(zoned, squares())]);
    expectSameTiles(got, expected);
    // The same metatile areas are read, each once (the parts ask in their own order).
    const sorted = (a: Bounds[]) => a.map((b) => b.join(',')).sort();
    expect(sorted(there)).toEqual(sorted(here));
    expect(there).toHaveLength(4);
  });

  it('fails a range with the error of its read, and the thread goes on drawing others', async () => {
    const broken = new Error('the database went away');
    const failing: LayerFeatures = {
      layer: points,
      sprites: new MarkerSpriteCache(96),
      read: async function* () {
        yield spreadPoints(5, 7);
        throw broken;
      },
    };
    await expect(
      renderRangeOnThread(
        1,
        range,
        [failing],
        pictures,
        () => {},
        () => {},
      ),
    ).rejects.toBe(broken);
    const dots = spreadPoints(40, 9);
    expectSameTiles(
      await draw(true, () => [whole(points, dots)]),
      await draw(false, () => [whole(points, dots)]),
    );
  });

  it('fails a range whose drawing throws in the thread, and the thread goes on drawing others', async () => {
    const dots = spreadPoints(40, 29);
    await draw(true, () => [whole(points, dots)]);
    const before = drawingThreadCount();
    // A renderer no validation would let through: its unique values are not a list.
    const unreadable: Layer = {
      geometryType: 'esriGeometryPoint',
      drawingInfo: { renderer: { type: 'uniqueValue', field1: 'zone', uniqueValueInfos: 5 } } as never,
    };
    await expect(
      renderRangeOnThread(
        1,
        range,
        [whole(unreadable, dots)],
        pictures,
        () => {},
        () => {},
      ),
    ).rejects.toThrow('number 5 is not iterable');
    expect(drawingThreadCount()).toBe(before);
    expectSameTiles(
      await draw(true, () => [whole(points, dots)]),
      await draw(false, () => [whole(points, dots)]),
    );
  });

  it('fails a range whose caller refuses a tile with that refusal', async () => {
    const refusal = new Error('no room for the tile');
    await expect(
      renderRangeOnThread(
        1,
        range,
        [whole(points, spreadPoints(30, 13))],
        pictures,
        () => {
          throw refusal;
        },
        () => {},
      ),
    ).rejects.toBe(refusal);
  });

  it('draws several ranges at once on at most the threads asked for, each as drawn alone', async () => {
    const sets = [3, 5, 7, 11, 13].map((s) => spreadPoints(60, s));
    const expected = await Promise.all(sets.map((dots) => draw(false, () => [whole(points, dots)])));
    const got = await Promise.all(sets.map((dots) => draw(true, () => [whole(points, dots)])));
    for (const [i, g] of got.entries()) expectSameTiles(g, expected[i]);
    expect(drawingThreadCount()).toBeLessThanOrEqual(2);
  });

  it("calls back in the caller's async context (an activity's, for its heartbeats), not the thread's", async () => {
    // Threads started outside any context, as the worker starts them; then two builds at once.
    await endDrawingThreads();
    prestartDrawingThreads(2);
    const activity = new AsyncLocalStorage<string>();
    const seenIn = async (name: string) => {
      const seen = new Set<string | undefined>();
      const note = () => void seen.add(activity.getStore());
      const layers: LayerFeatures[] = [
        {
          layer: points,
          sprites: new MarkerSpriteCache(96),
          read: async function* (area: Bounds) {
            note();
            yield spreadPoints(50, 23).filter((f) => meets(f.bounds, area));
          },
        },
      ];
      await activity.run(name, () => renderRangeOnThread(2, range, layers, pictures, note, note));
      return [...seen];
    };
    const [a, b] = await Promise.all([seenIn('bundle a'), seenIn('bundle b')]);
    expect(a).toEqual(['bundle a']);
    expect(b).toEqual(['bundle b']);
  });

  it('fails the ranges of a thread that stops, and draws the next range on a new one', async () => {
    let asked = () => {};
    const askedFor = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const stuck: LayerFeatures = {
      layer: points,
      sprites: new MarkerSpriteCache(96),
      read: async function* () {
        asked();
        await new Promise(() => {});
      },
    };
    const pending = renderRangeOnThread(
      1,
      range,
      [stuck],
      pictures,
      () => {},
      () => {},
    );
    const failed = expect(pending).rejects.toMatchObject({
      details: [expect.stringMatching(/^The tile drawing thread stopped/)],
    });
    await askedFor;
    await endDrawingThreads();
    await failed;
    const dots = spreadPoints(40, 17);
    expectSameTiles(
      await draw(true, () => [whole(points, dots)]),
      await draw(false, () => [whole(points, dots)]),
    );
  });
});

describe('idle drawing threads', () => {
  it('do not keep a process alive: one that started them ahead ends when its own work is done', async () => {
    const module = fileURLToPath(new URL('../../../activities/tiles/render-threads.ts', import.meta.url));
    const script = [
      `import { prestartDrawingThreads, drawingThreadCount } from ${JSON.stringify(module)};`,
      'prestartDrawingThreads(2);',
      // Long enough for both threads to be running, their message listeners set.
      "setTimeout(() => console.log('threads', drawingThreadCount()), 1500);",
    ].join('\n');
    const started = Date.now();
    // A process held open by its idle threads would be killed at the timeout, and the call would fail.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      { timeout: 20_000 },
    );
    expect(stdout.trim()).toBe('threads 2');
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);
});
