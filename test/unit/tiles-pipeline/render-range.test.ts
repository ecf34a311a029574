import { describe, expect, it } from 'vitest';
import { encodePng, METATILE, renderRange } from '../../../activities/tiles/render-bundle.js';
import type { DrawableLayer, LocatedFeature } from '../../../db/repositories/layer-features.js';
import { MarkerSpriteCache } from '../../../lib/render/marker-sprites.js';
import { cropTile } from '../../../lib/render/metatile-crop.js';
import { isEmptyTile, renderTile } from '../../../lib/render/render-tile.js';
import { metatilesInRange, metatileTiles } from '../../../lib/tiles/metatile.js';
import { TILE_SIZE, tileBounds } from '../../../lib/tiles/web-mercator.js';

const layer: DrawableLayer = {
  layerId: 0,
  name: 'points',
  tableName: 'f_00000000000000000000000000000000_0',
  geometryType: 'esriGeometryPoint',
  drawingInfo: null,
  rendererColumns: [],
  extent: null,
  featureCount: 1,
};

/** A point in the middle of tile (level 10, row 380, col 262). */
function pointFeature(): LocatedFeature {
  const [xmin, ymin, xmax, ymax] = tileBounds({ level: 10, row: 380, col: 262 });
  const x = (xmin + xmax) / 2;
  const y = (ymin + ymax) / 2;
  return { geometry: { x, y }, attributes: {}, bounds: [x, y, x, y] };
}

describe('renderRange', () => {
  const range = { level: 10, minRow: 376, maxRow: 383, minCol: 256, maxCol: 263 };

  it('encodes only the tile the point paints: empty tiles are neither encoded nor handed on', async () => {
    const tiles: string[] = [];
    await renderRange(
      range,
      [{ layer, features: [pointFeature()], sprites: new MarkerSpriteCache(96) }],
      new Map(),
      (t) => void tiles.push(`${t.level}/${t.row}/${t.col}`),
      () => {},
    );
    expect(tiles).toEqual(['10/380/262']);
  });

  it('hands on PNG bytes', async () => {
    let png: Uint8Array | undefined;
    await renderRange(
      range,
      [{ layer, features: [pointFeature()], sprites: new MarkerSpriteCache(96) }],
      new Map(),
      (t) => {
        png = t.png;
      },
      () => {},
    );
    expect([...(png ?? []).slice(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
  });

  it('reports every metatile of the range for heartbeats, drawn or not', async () => {
    const seen: number[] = [];
    const out = await renderRange(
      range,
      [],
      new Map(),
      () => {},
      (n) => seen.push(n),
    );
    expect(out).toEqual({ tiles: 0, metatiles: 4 });
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  /** Points spread over the range (a fixed sequence), so most metatiles draw several tiles. */
  function spreadPoints(n: number): LocatedFeature[] {
    const [xmin, , , ymax] = tileBounds({ level: 10, row: range.minRow, col: range.minCol });
    const [, ymin, xmax] = tileBounds({ level: 10, row: range.maxRow, col: range.maxCol });
    let seed = 3;
    const rand = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    return Array.from({ length: n }, () => {
      const x = xmin + rand() * (xmax - xmin);
      const y = ymin + rand() * (ymax - ymin);
      return { geometry: { x, y }, attributes: {}, bounds: [x, y, x, y] as [number, number, number, number] };
    });
  }

  it('gives the tiles and bytes of drawing and encoding one metatile at a time, with encodes overlapping', async () => {
    const features = spreadPoints(60);
    const got = new Map<string, Buffer>();
    const out = await renderRange(
      range,
      [{ layer, features, sprites: new MarkerSpriteCache(96) }],
      new Map(),
      (t) => void got.set(`${t.row}/${t.col}`, Buffer.from(t.png)),
      () => {},
    );
    // One metatile at a time, every tile encoded before the next metatile is drawn.
    const expected = new Map<string, Buffer>();
    for (const meta of metatilesInRange(range, METATILE)) {
      const rgba = new Uint8Array(meta.width * meta.height * 4);
      renderTile({
        features,
        drawingInfo: null,
        geometryType: 'esriGeometryPoint',
        envelope: meta.bounds,
        width: meta.width,
        height: meta.height,
        target: rgba,
        sprites: new MarkerSpriteCache(96),
        pictures: new Map(),
      });
      for (const t of metatileTiles(meta, range)) {
        const crop = cropTile(rgba, meta.width, t.col - meta.col0, t.row - meta.row0, TILE_SIZE);
        if (!isEmptyTile(crop)) expected.set(`${t.row}/${t.col}`, Buffer.from(await encodePng(crop)));
      }
    }
    expect(expected.size).toBeGreaterThan(20);
    expect(out.tiles).toBe(expected.size);
    expect([...got.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [k, png] of expected) expect({ k, same: got.get(k)?.equals(png) }).toEqual({ k, same: true });
  });

  it('draws a layer read for each metatile in pages as it draws the layer given whole, transparency included', async () => {
    // Half-transparent big markers that overlap: drawn page by page onto the layer's own canvas they
    // composite once, as one call does; composited page by page, the overlaps would show through.
    const transparent: DrawableLayer = {
      ...layer,
      drawingInfo: {
        transparency: 50,
        renderer: {
          type: 'simple',
          symbol: { type: 'esriSMS', style: 'esriSMSCircle', color: [200, 30, 30, 255], size: 24 },
        },
      } as DrawableLayer['drawingInfo'],
    };
    const features = spreadPoints(90);
    const whole = new Map<string, Buffer>();
    await renderRange(
      range,
      [{ layer: transparent, features, sprites: new MarkerSpriteCache(96) }],
      new Map(),
      (t) => void whole.set(`${t.row}/${t.col}`, Buffer.from(t.png)),
      () => {},
    );
    const asked: number[] = [];
    const paged = new Map<string, Buffer>();
    await renderRange(
      range,
      [
        {
          layer: transparent,
          sprites: new MarkerSpriteCache(96),
          async *read(area) {
            const meets = features.filter(
              (f) =>
                f.bounds[0] <= area[2] &&
                f.bounds[2] >= area[0] &&
                f.bounds[1] <= area[3] &&
                f.bounds[3] >= area[1],
            );
            asked.push(meets.length);
            // Pages of 4, with an empty one between: the order of the whole is kept.
            for (let i = 0; i < meets.length; i += 4) {
              yield meets.slice(i, i + 4);
              yield [];
            }
          },
        },
      ],
      new Map(),
      (t) => void paged.set(`${t.row}/${t.col}`, Buffer.from(t.png)),
      () => {},
    );
    expect(asked).toHaveLength(4);
    expect(Math.max(...asked)).toBeGreaterThan(8);
    expect(whole.size).toBeGreaterThan(20);
    expect([...paged.keys()].sort()).toEqual([...whole.keys()].sort());
    for (const [k, png] of whole) expect({ k, same: paged.get(k)?.equals(png) }).toEqual({ k, same: true });
  });

  it('fails when a tile cannot be handed on, after every encode has settled', async () => {
    let calls = 0;
    let callsAfter = 0;
    let failed = false;
    await expect(
      renderRange(
        range,
        [{ layer, features: spreadPoints(60), sprites: new MarkerSpriteCache(96) }],
        new Map(),
        () => {
          calls++;
          if (failed) callsAfter++;
          if (calls === 3) throw new Error('store down');
        },
        () => {},
      ),
    ).rejects.toThrow('store down');
    failed = true;
    const settledCalls = calls;
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toBe(settledCalls); // nothing was still running once renderRange had failed
    expect(callsAfter).toBe(0);
  });
});
