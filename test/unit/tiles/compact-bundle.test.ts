import { describe, expect, it } from 'vitest';
import {
  BUNDLE_FIXED_SIZE,
  BUNDLE_INDEX_RANGE,
  BundleBuilder,
  bundleName,
  bundlePath,
  decodeBundle,
  encodeBundle,
  mergeBundle,
  parseBundleHeader,
  parseBundleIndex,
  parseBundlePath,
  readBundleTile,
  tileEntry,
  tileIndexInBundle,
  tileOfRecord,
  tileRecordRange,
} from '../../../lib/tiles/compact-bundle.js';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);
const u32 = (b: Uint8Array, at: number): number => new DataView(b.buffer, b.byteOffset).getUint32(at, true);
const u64 = (b: Uint8Array, at: number): bigint =>
  new DataView(b.buffer, b.byteOffset).getBigUint64(at, true);

/**
 * A bundle written by hand from the published layout, not by our encoder: tile records in reverse
 * slot order with a 3-byte gap between them (both allowed by the format). Offsets above 2^32 cannot
 * be held in a test file, so the 40-bit split is checked on an index alone further down.
 */
function handmadeBundle(): Uint8Array {
  const tileA = bytes(0x89, 0x50, 0x4e, 0x47, 1, 2, 3); // slot of (row 0, col 1)
  const tileB = bytes(0xff, 0xd8, 0xff, 9); // slot of (row 127, col 127)
  const size = BUNDLE_FIXED_SIZE + 4 + tileB.length + 3 + 4 + tileA.length;
  const file = new Uint8Array(size);
  const v = new DataView(file.buffer);
  for (const [i, n] of [3, 16384, 7, 5].entries()) v.setUint32(i * 4, n, true);
  v.setBigUint64(16, 0n, true);
  v.setBigUint64(24, BigInt(size), true);
  v.setBigUint64(32, 40n, true);
  for (const [i, n] of [131092, 3, 16, 16384, 5, 131072].entries()) v.setUint32(40 + i * 4, n, true);
  let at = BUNDLE_FIXED_SIZE;
  const put = (row: number, col: number, tile: Uint8Array): void => {
    v.setUint32(at, tile.length, true);
    const offset = at + 4;
    file.set(tile, offset);
    const entry = (BigInt(tile.length) << 40n) | BigInt(offset);
    v.setBigUint64(64 + 8 * (128 * row + col), entry, true);
    at = offset + tile.length;
  };
  put(127, 127, tileB);
  at += 3;
  put(0, 1, tileA);
  return file;
}

describe('compact cache V2 bundle naming', () => {
  it('names a bundle after its top-left tile in 4-digit lower-case hex', () => {
    expect(bundleName(200, 300)).toBe('R0080C0100');
    expect(bundlePath(5, 0, 0)).toBe('L05/R0000C0000.bundle');
  });

  it('grows names past four hex digits for deep levels', () => {
    expect(bundleName(70000, 131071)).toBe('R11100C1ff80');
  });

  it('parses a bundle path back into level and top-left tile', () => {
    expect(parseBundlePath('cache/_alllayers/L18/R11100C1ff80.bundle')).toEqual({
      level: 18,
      row0: 69888,
      col0: 130944,
    });
    expect(parseBundlePath('L05/readme.txt')).toBeUndefined();
  });

  it('indexes tiles row-major inside the 128×128 block', () => {
    expect(tileIndexInBundle(129, 130)).toBe(128 * 1 + 2);
  });
});

describe('compact cache V2 bundle reading', () => {
  it('reads the header of a handmade bundle', () => {
    const file = handmadeBundle();
    expect(parseBundleHeader(file)).toEqual({
      version: 3,
      recordCount: 16384,
      maxTileSize: 7,
      offsetByteCount: 5,
      fileSize: file.length,
    });
  });

  it('finds each tile of a handmade bundle through the index bytes 64–131135', () => {
    const file = handmadeBundle();
    const index = parseBundleIndex(file.subarray(BUNDLE_INDEX_RANGE.start, BUNDLE_INDEX_RANGE.end + 1));
    const b = tileEntry(index, 127, 127);
    const a = tileEntry(index, 128, 129); // same slot as (0, 1) in the next bundle down-right
    expect(b).toEqual({ offset: BUNDLE_FIXED_SIZE + 4, size: 4 });
    expect(a).toEqual({ offset: BUNDLE_FIXED_SIZE + 4 + 4 + 3 + 4, size: 7 });
    expect(tileEntry(index, 5, 5)).toBeUndefined();
  });

  it('reads tile bytes from a handmade bundle with gaps and out-of-order records', () => {
    const file = handmadeBundle();
    expect([...(readBundleTile(file, 0, 1) ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    expect([...(readBundleTile(file, 127, 127) ?? [])]).toEqual([0xff, 0xd8, 0xff, 9]);
    expect(readBundleTile(file, 0, 0)).toBeUndefined();
  });

  it('splits an index entry into a 40-bit offset and a 24-bit size', () => {
    const index = new Uint8Array(131072);
    const entry = (12345n << 40n) | 0xab_1234_5678n;
    new DataView(index.buffer).setBigUint64(8 * 3, entry, true);
    expect(tileEntry(parseBundleIndex(index), 0, 3)).toEqual({ offset: 0xab_1234_5678, size: 12345 });
  });

  it('reads a tile of a handmade bundle with its size prefix in one range and checks the prefix', () => {
    const file = handmadeBundle();
    const index = parseBundleIndex(file.subarray(BUNDLE_INDEX_RANGE.start, BUNDLE_INDEX_RANGE.end + 1));
    const entry = tileEntry(index, 0, 1);
    const range = entry && tileRecordRange(entry);
    expect(range).toEqual({ offset: BUNDLE_FIXED_SIZE + 4 + 4 + 3, length: 4 + 7 });
    if (!range) return;
    const record = file.subarray(range.offset, range.offset + range.length);
    expect([...(tileOfRecord(record, 7) ?? [])]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  });

  it('refuses a record whose size prefix or length differs from the index', () => {
    const file = handmadeBundle();
    // Where tile B's record would be found through a stale index that gave it 7 bytes.
    const at = BUNDLE_FIXED_SIZE;
    expect(tileOfRecord(file.subarray(at, at + 4 + 7), 7)).toBeUndefined();
    // A read cut short by the end of a shrunken object.
    expect(tileOfRecord(file.subarray(at, at + 4 + 3), 4)).toBeUndefined();
    expect([...(tileOfRecord(file.subarray(at, at + 4 + 4), 4) ?? [])]).toEqual([0xff, 0xd8, 0xff, 9]);
  });

  it('has no record range for an entry pointing before any size prefix could be', () => {
    expect(tileRecordRange({ offset: 2, size: 10 })).toBeUndefined();
  });

  it('rejects a file that is not a V2 bundle', () => {
    expect(() => parseBundleHeader(new Uint8Array(64))).toThrowError(expect.objectContaining({ code: 400 }));
  });
});

describe('compact cache V2 bundle writing', () => {
  const tiles = new Map<number, Uint8Array>([
    [tileIndexInBundle(0, 1), bytes(0x89, 0x50, 0x4e, 0x47, 1, 2, 3)],
    [tileIndexInBundle(127, 127), bytes(0xff, 0xd8, 0xff, 9)],
  ]);

  it('writes the 64-byte header the layout prescribes', () => {
    const file = encodeBundle(tiles);
    const header = [0, 4, 8, 12].map((at) => u32(file, at));
    expect(header).toEqual([3, 16384, 7, 5]);
    expect(u64(file, 16)).toBe(0n);
    expect(u64(file, 24)).toBe(BigInt(file.length));
    expect(u64(file, 32)).toBe(40n);
    expect([40, 44, 48, 52, 56, 60].map((at) => u32(file, at))).toEqual([131092, 3, 16, 16384, 5, 131072]);
  });

  it('prefixes each tile with its u32 size and points the index past the prefix', () => {
    const file = encodeBundle(tiles);
    const entry = u64(file, 64 + 8 * tileIndexInBundle(0, 1));
    const offset = Number(entry & 0xff_ffff_ffffn);
    expect(Number(entry >> 40n)).toBe(7);
    expect(u32(file, offset - 4)).toBe(7);
    expect([...file.subarray(offset, offset + 7)]).toEqual([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
  });

  it('writes a bundle of header, index and records with nothing else', () => {
    expect(encodeBundle(tiles).length).toBe(BUNDLE_FIXED_SIZE + 4 + 7 + 4 + 4);
  });

  it('round-trips a bundle byte for byte through decode and encode', () => {
    const file = encodeBundle(tiles);
    expect(Buffer.from(encodeBundle(decodeBundle(file))).equals(Buffer.from(file))).toBe(true);
  });

  it('decodes a handmade bundle into the same tiles our encoder is given', () => {
    const decoded = decodeBundle(handmadeBundle());
    expect([...decoded.keys()].sort((a, b) => a - b)).toEqual([...tiles.keys()].sort((a, b) => a - b));
    for (const [slot, tile] of tiles) expect([...(decoded.get(slot) ?? [])]).toEqual([...tile]);
  });

  it('streams the same bytes from the builder as the one-shot encoder', () => {
    const builder = new BundleBuilder().add(127, 127, tiles.get(16383)!).add(0, 1, tiles.get(1)!);
    const { head, records, byteLength } = builder.finish();
    const streamed = Buffer.concat([head, ...records]);
    expect(byteLength).toBe(streamed.length);
    expect(streamed.equals(Buffer.from(encodeBundle(tiles)))).toBe(true);
  });

  it('replaces, adds and removes tiles when merging into an existing bundle', () => {
    const merged = mergeBundle(
      encodeBundle(tiles),
      new Map([
        [tileIndexInBundle(0, 1), bytes(1)],
        [5, bytes(2, 2)],
        [tileIndexInBundle(127, 127), new Uint8Array(0)],
      ]),
    );
    const decoded = decodeBundle(merged);
    expect([...decoded].map(([slot, t]) => [slot, [...t]])).toEqual([
      [1, [1]],
      [5, [2, 2]],
    ]);
  });

  it('writes an empty bundle whose every index entry is empty', () => {
    const file = encodeBundle(new Map());
    expect(file.length).toBe(BUNDLE_FIXED_SIZE);
    expect(parseBundleIndex(file.subarray(64)).sizes.every((s) => s === 0)).toBe(true);
  });
});
