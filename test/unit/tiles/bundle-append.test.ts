import { describe, expect, it } from 'vitest';
import {
  appendToBundle,
  COMPACTION,
  compactionDue,
  deadBytes,
  updateBundle,
} from '../../../lib/tiles/bundle-append.js';
import {
  BUNDLE_FIXED_SIZE,
  BundleBuilder,
  decodeBundle,
  parseBundleIndex,
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

describe('compacting a bundle whose replaced tiles outweigh the live ones', () => {
  const policy = { maxDeadShare: 0.5, minDeadBytes: 1000 };
  const big = (n: number) => tile(n, 50_000);
  const slots = [tileIndexInBundle(0, 0), tileIndexInBundle(0, 1), tileIndexInBundle(9, 9)];
  const original = new BundleBuilder()
    .setSlot(slots[0], big(1))
    .setSlot(slots[1], big(2))
    .setSlot(slots[2], tile(3))
    .toBytes();

  it('counts as dead the records no index entry reaches', () => {
    const { bytes, tileCount, liveBytes } = appendToBundle(original, new Map([[slots[0], big(4)]]));
    expect(deadBytes(bytes.length, tileCount, liveBytes)).toBe(4 + 50_000);
    expect(deadBytes(original.length, 3, 100_010)).toBe(0);
  });

  it('is due only when dead bytes exceed both the share of the object and the minimum', () => {
    const live = 100_000;
    const size = (dead: number) => BUNDLE_FIXED_SIZE + 4 * 2 + live + dead;
    // Half of the object: dead > fixed part + live records.
    const half = BUNDLE_FIXED_SIZE + 8 + live;
    expect(compactionDue(size(half), 2, live, policy)).toBe(false);
    expect(compactionDue(size(half + 1), 2, live, policy)).toBe(true);
    expect(compactionDue(size(half + 1), 2, live, { ...policy, minDeadBytes: half + 1 })).toBe(false);
    expect(compactionDue(size(half + 2), 2, live, { ...policy, minDeadBytes: half + 1 })).toBe(true);
  });

  it('appends while the dead bytes stay within the policy', () => {
    const result = updateBundle(original, new Map([[slots[0], big(4)]]), policy);
    expect(result.compacted).toBe(false);
    expect(result.bytes.subarray(0, original.length).subarray(BUNDLE_FIXED_SIZE)).toEqual(
      original.subarray(BUNDLE_FIXED_SIZE),
    );
  });

  it('rewrites the live tiles alone, in slot order, once they are exceeded', () => {
    // 100 kB tiles: the dead records must outweigh the 131 kB fixed part and 200 kB of live records.
    const large = (n: number) => tile(n, 100_000);
    let bytes = new BundleBuilder()
      .setSlot(slots[0], large(1))
      .setSlot(slots[1], large(2))
      .setSlot(slots[2], tile(3))
      .toBytes();
    const compactedAt: boolean[] = [];
    for (let n = 4; n < 8; n++) {
      const result = updateBundle(bytes, new Map([[slots[0], large(n)]]), policy);
      compactedAt.push(result.compacted);
      bytes = result.bytes;
    }
    expect(compactedAt).toEqual([false, false, false, true]);
    expect(bytes.length).toBe(BUNDLE_FIXED_SIZE + 3 * 4 + 200_010);
    const tiles = decodeBundle(bytes);
    expect(tiles.get(slots[0])).toEqual(large(7));
    expect(tiles.get(slots[1])).toEqual(large(2));
    expect(tiles.get(slots[2])).toEqual(tile(3));
    expect(tiles.size).toBe(3);
    const index = parseBundleIndex(bytes.subarray(64, BUNDLE_FIXED_SIZE));
    expect([slots[0], slots[1], slots[2]].map((slot) => index.offsets[slot])).toEqual([
      BUNDLE_FIXED_SIZE + 4,
      BUNDLE_FIXED_SIZE + 4 + 100_000 + 4,
      BUNDLE_FIXED_SIZE + 2 * (4 + 100_000) + 4,
    ]);
  });

  it('never compacts a fresh bundle and uses a policy of half the object and 256 KiB by default', () => {
    expect(updateBundle(undefined, new Map([[slots[0], big(1)]])).compacted).toBe(false);
    expect(COMPACTION).toEqual({ maxDeadShare: 0.5, minDeadBytes: 256 * 1024 });
  });
});
