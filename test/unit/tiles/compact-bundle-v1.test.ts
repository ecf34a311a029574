import { describe, expect, it } from 'vitest';
import {
  BUNDLX_SIZE,
  bundlxSlot,
  parseBundlx,
  readV1Tile,
  v1BundleTiles,
} from '../../../lib/tiles/compact-bundle-v1.js';

/** A V1 bundle + bundlx pair written by hand from the layout: offsets point at the size prefix. */
function handmadeV1(): { bundle: Uint8Array; bundlx: Uint8Array } {
  const tile = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 7]);
  const recordAt = 60 + 16384 * 4;
  const bundle = new Uint8Array(recordAt + 4 + tile.length);
  new DataView(bundle.buffer).setUint32(recordAt, tile.length, true);
  bundle.set(tile, recordAt + 4);
  const bundlx = new Uint8Array(BUNDLX_SIZE);
  bundlx.set([3, 0, 0, 0, 16, 0, 0, 0, 0, 0x40, 0, 0, 5, 0, 0, 0]);
  // Every empty slot points at an all-zero slot of the bundle (size 0); the tile at row 2, col 1
  // (column-major slot 128·1 + 2) points at the record.
  for (let slot = 0; slot < 16384; slot++) {
    const offset = slot === 130 ? recordAt : 60 + slot * 4;
    for (let b = 0; b < 5; b++) bundlx[16 + slot * 5 + b] = Math.floor(offset / 256 ** b) % 256;
  }
  return { bundle, bundlx };
}

describe('compact cache V1 bundles', () => {
  it('orders the bundlx column-major', () => {
    expect(bundlxSlot(2, 1)).toBe(130);
    expect(bundlxSlot(130, 129)).toBe(130);
  });

  it('reads a tile through its 5-byte bundlx offset', () => {
    const { bundle, bundlx } = handmadeV1();
    expect([...(readV1Tile(bundle, parseBundlx(bundlx), 2, 1) ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47, 7]);
  });

  it('treats a zero size prefix as no tile', () => {
    const { bundle, bundlx } = handmadeV1();
    expect(readV1Tile(bundle, parseBundlx(bundlx), 1, 2)).toBeUndefined();
  });

  it('lists only the tiles present, with their row and column in the bundle', () => {
    const { bundle, bundlx } = handmadeV1();
    const tiles = [...v1BundleTiles(bundle, parseBundlx(bundlx))];
    expect(tiles.map((t) => [t.rowInBundle, t.colInBundle, t.bytes.length])).toEqual([[2, 1, 5]]);
  });
});
