import { describe, expect, it } from 'vitest';
import { appendToBundle } from '../../../lib/tiles/bundle-append.js';
import {
  BundleBuilder,
  decodeBundle,
  readBundleTile,
  tileIndexInBundle,
} from '../../../lib/tiles/compact-bundle.js';

const tile = (n: number, len = 10) => new Uint8Array(len).fill(n);

describe('appending tiles to a compact bundle', () => {
  const original = new BundleBuilder().add(0, 0, tile(1)).add(0, 1, tile(2)).add(5, 7, tile(3)).toBytes();

  it('keeps every old tile at its old offset so an old index still reads old bytes', () => {
    const { bytes } = appendToBundle(original, new Map([[tileIndexInBundle(0, 1), tile(9, 20)]]));
    expect(bytes.subarray(0, 64).length).toBe(64);
    expect(bytes.subarray(64 + 128 * 128 * 8, original.length)).toEqual(
      original.subarray(64 + 128 * 128 * 8),
    );
    expect(bytes.length).toBe(original.length + 4 + 20);
  });

  it('serves replaced and added tiles through the new index and untouched ones unchanged', () => {
    const updates = new Map([
      [tileIndexInBundle(0, 1), tile(9, 20)],
      [tileIndexInBundle(100, 100), tile(7, 5)],
    ]);
    const { bytes, tileCount, liveBytes } = appendToBundle(original, updates);
    expect(readBundleTile(bytes, 0, 0)).toEqual(tile(1));
    expect(readBundleTile(bytes, 0, 1)).toEqual(tile(9, 20));
    expect(readBundleTile(bytes, 100, 100)).toEqual(tile(7, 5));
    expect(readBundleTile(bytes, 5, 7)).toEqual(tile(3));
    expect(tileCount).toBe(4);
    expect(liveBytes).toBe(10 + 20 + 5 + 10);
  });

  it('removes a tile given as empty', () => {
    const { bytes, tileCount } = appendToBundle(
      original,
      new Map([[tileIndexInBundle(5, 7), new Uint8Array()]]),
    );
    expect(readBundleTile(bytes, 5, 7)).toBeUndefined();
    expect(tileCount).toBe(2);
    expect(decodeBundle(bytes).size).toBe(2);
  });

  it('writes a plain fresh bundle when there was none', () => {
    const { bytes, tileCount } = appendToBundle(undefined, new Map([[tileIndexInBundle(3, 4), tile(4)]]));
    expect(tileCount).toBe(1);
    expect(readBundleTile(bytes, 3, 4)).toEqual(tile(4));
  });
});
