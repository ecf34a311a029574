import { describe, expect, it } from 'vitest';
import { BUNDLE_TILES, tileIndexInBundle } from '../../../lib/tiles/compact-bundle.js';
import { bundlesOfArea, MAX_TILE_MAP_SIDE, tileMapArea, tileMapData } from '../../../lib/tiles/tile-map.js';

const ask = (row: string, col: string, width: string, height: string) => ({ row, col, width, height });

describe('tileMapArea', () => {
  it('answers the area asked for as it is while it lies inside the level', () => {
    expect(tileMapArea(ask('1536', '1024', '32', '32'), 4096)).toEqual({
      location: { top: 1536, left: 1024, width: 32, height: 32 },
      adjusted: false,
    });
  });

  it('cuts an area at the edge of the level and at the longest side, and says so', () => {
    expect(tileMapArea(ask('0', '6', '32', '4'), 8)).toEqual({
      location: { top: 0, left: 6, width: 2, height: 4 },
      adjusted: true,
    });
    expect(tileMapArea(ask('0', '0', '1000', '1'), 4096)).toEqual({
      location: { top: 0, left: 0, width: MAX_TILE_MAP_SIDE, height: 1 },
      adjusted: true,
    });
  });

  it('names what is wrong with a request that names no area', () => {
    expect(tileMapArea(ask('8', '0', '1', '1'), 8)).toEqual({ problem: 'Invalid row: 8.' });
    expect(tileMapArea(ask('0', '-1', '1', '1'), 8)).toEqual({ problem: 'Invalid column: -1.' });
    expect(tileMapArea(ask('0', '0', '0', '1'), 8)).toEqual({ problem: 'Invalid width: 0.' });
    expect(tileMapArea(ask('0', '0', '1', '2.5'), 8)).toEqual({ problem: 'Invalid height: 2.5.' });
    expect(tileMapArea(ask('0x1', '0', '1', '1'), 8)).toEqual({ problem: 'Invalid row: 0x1.' });
  });
});

describe('bundlesOfArea', () => {
  it('lists every 128 × 128 bundle an area touches, by its top-left tile', () => {
    expect(bundlesOfArea({ top: 120, left: 250, width: 10, height: 10 })).toEqual([
      { row0: 0, col0: 128 },
      { row0: 0, col0: 256 },
      { row0: 128, col0: 128 },
      { row0: 128, col0: 256 },
    ]);
    expect(bundlesOfArea({ top: 0, left: 0, width: 128, height: 128 })).toEqual([{ row0: 0, col0: 0 }]);
  });
});

describe('tileMapData', () => {
  it('marks the tiles whose bundle index gives them a size, row by row, across bundles', () => {
    // Tiles (127, 127) and (128, 130) exist, in two bundles; the bundle at (0, 128) does not exist.
    const first = new Uint32Array(BUNDLE_TILES);
    first[tileIndexInBundle(127, 127)] = 900;
    const second = new Uint32Array(BUNDLE_TILES);
    second[tileIndexInBundle(128, 130)] = 40;
    const location = { top: 126, left: 126, width: 5, height: 3 };
    const data = tileMapData(location, [
      { row0: 0, col0: 0, sizes: first },
      { row0: 0, col0: 128, sizes: undefined },
      { row0: 128, col0: 0, sizes: new Uint32Array(BUNDLE_TILES) },
      { row0: 128, col0: 128, sizes: second },
    ]);
    expect(data).toEqual(
      [
        [0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
        [0, 0, 0, 0, 1],
      ].flat(),
    );
  });

  it('is all zeros where no bundle exists', () => {
    const location = { top: 0, left: 0, width: 2, height: 2 };
    const none = bundlesOfArea(location).map((b) => ({ ...b, sizes: undefined }));
    expect(tileMapData(location, none)).toEqual([0, 0, 0, 0]);
  });
});
