import { describe, expect, it } from 'vitest';
import { renderRange } from '../../../activities/tiles/render-bundle.js';
import type { DrawableLayer, LocatedFeature } from '../../../db/repositories/layer-features.js';
import { MarkerSpriteCache } from '../../../lib/render/marker-sprites.js';
import { tileBounds } from '../../../lib/tiles/web-mercator.js';

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
});
